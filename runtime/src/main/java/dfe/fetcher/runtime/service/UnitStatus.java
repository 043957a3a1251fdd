package dfe.fetcher.runtime.service;

import dfe.fetcher.runtime.cursor.StoredCheckpoint;
import dfe.fetcher.runtime.schedule.TickHistory;
import dfe.fetcher.runtime.tick.TickOutcome;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One enabled unit of a running service as {@code /status} shows it: its last tick, its last
 * success, its connection's next run and its checkpoint. Holds names, times, fixed words and the
 * reason a tick failed (the text the tick logged), never a secret.
 *
 * @param store {@code <connection>.<unit>}
 * @param connection the connection id
 * @param shape {@code dump} or {@code tail}
 * @param ticks the scheduler's record of the unit's ticks
 * @param nextRun when the connection's next run is due; empty while it runs or when unscheduled
 * @param checkpoint what its checkpoint file holds; empty for a unit that commits none (a database
 *     or REST dump)
 */
public record UnitStatus(
    String store,
    String connection,
    String shape,
    TickHistory.UnitTicks ticks,
    Optional<Instant> nextRun,
    Optional<StoredCheckpoint> checkpoint) {

  public UnitStatus {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(ticks, "ticks");
    Objects.requireNonNull(nextRun, "nextRun");
    Objects.requireNonNull(checkpoint, "checkpoint");
  }

  /** How the last tick ended: {@code succeeded}, {@code failed} or {@code stopped}. */
  public Optional<String> lastOutcome() {
    return ticks.lastOutcome().map(UnitStatus::word);
  }

  /** Why the last tick failed, when it did. */
  public Optional<String> lastFailure() {
    return ticks
        .lastOutcome()
        .filter(TickOutcome.Failed.class::isInstance)
        .map(outcome -> ((TickOutcome.Failed) outcome).reason());
  }

  private static String word(TickOutcome outcome) {
    if (outcome instanceof TickOutcome.Succeeded) {
      return "succeeded";
    }
    if (outcome instanceof TickOutcome.Failed) {
      return "failed";
    }
    if (outcome instanceof TickOutcome.Stopped) {
      return "stopped";
    }
    throw new IllegalArgumentException("a tick outcome /status has no word for: " + outcome);
  }
}
