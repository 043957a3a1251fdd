package dfe.fetcher.runtime.schedule;

import dfe.fetcher.runtime.tick.TickOutcome;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the scheduler knows of each unit's ticks and each connection's next run, for the service's
 * {@code /status}. Thread-safe: ticks on any thread record into it while a request reads it; each
 * unit's entry is an immutable value replaced whole, so a reader never sees half an update. It
 * keeps the outcome of the last tick only, and of a failure its reason (the text the tick logged,
 * never a record's content or a secret).
 */
public final class TickHistory {

  /**
   * One unit's ticks as far as the scheduler has seen them.
   *
   * @param runningSince when the tick running now started; empty when none is running
   * @param lastTickEnd when the last tick ended
   * @param lastOutcome how the last tick ended
   * @param lastSuccess when the last tick that succeeded ended
   */
  public record UnitTicks(
      Optional<Instant> runningSince,
      Optional<Instant> lastTickEnd,
      Optional<TickOutcome> lastOutcome,
      Optional<Instant> lastSuccess) {

    public static final UnitTicks NEVER_RAN =
        new UnitTicks(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public UnitTicks {
      Objects.requireNonNull(runningSince, "runningSince");
      Objects.requireNonNull(lastTickEnd, "lastTickEnd");
      Objects.requireNonNull(lastOutcome, "lastOutcome");
      Objects.requireNonNull(lastSuccess, "lastSuccess");
    }
  }

  private final Map<String, UnitTicks> units = new ConcurrentHashMap<>();
  private final Map<String, Instant> nextRuns = new ConcurrentHashMap<>();

  void tickStarted(String store, Instant at) {
    units.compute(
        store,
        (key, was) -> {
          UnitTicks before = was == null ? UnitTicks.NEVER_RAN : was;
          return new UnitTicks(
              Optional.of(at), before.lastTickEnd(), before.lastOutcome(), before.lastSuccess());
        });
  }

  void tickEnded(String store, Instant at, TickOutcome outcome) {
    units.compute(
        store,
        (key, was) -> {
          UnitTicks before = was == null ? UnitTicks.NEVER_RAN : was;
          return new UnitTicks(
              Optional.empty(),
              Optional.of(at),
              Optional.of(outcome),
              outcome instanceof TickOutcome.Succeeded ? Optional.of(at) : before.lastSuccess());
        });
  }

  /** The connection's next run is due at {@code at}. */
  void nextRunAt(String connection, Instant at) {
    nextRuns.put(connection, at);
  }

  /** The connection is running now, or off the schedule: no next run is known. */
  void noNextRun(String connection) {
    nextRuns.remove(connection);
  }

  public UnitTicks of(String store) {
    return units.getOrDefault(store, UnitTicks.NEVER_RAN);
  }

  /** When the connection's next run is due; empty while it runs and when it is not scheduled. */
  public Optional<Instant> nextRunOf(String connection) {
    return Optional.ofNullable(nextRuns.get(connection));
  }
}
