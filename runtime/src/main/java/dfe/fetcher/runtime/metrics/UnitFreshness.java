package dfe.fetcher.runtime.metrics;

import dfe.fetcher.core.metrics.MetricNames;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How fresh each unit's data is, as gauges computed when {@code /metrics} is scraped, by the
 * service's clock: the unit's interval, when its last successful tick ended, and the age of its
 * data ({@link MetricNames#CHECKPOINT_AGE}). The data moves when the unit commits a checkpoint, or,
 * for a unit that keeps none (a database or REST dump, whose every successful tick lands the whole
 * store), when a tick succeeds. Thread-safe: ticks report on any thread while a scrape reads; each
 * unit's state is an immutable value replaced whole.
 */
public final class UnitFreshness {

  /**
   * One unit as the gauges see it.
   *
   * @param dataMovedAt when the checkpoint was last committed (or, for a unit without one, its last
   *     success); before either, when the unit was registered or its checkpoint file written
   */
  private record UnitState(
      double intervalSeconds,
      boolean keepsCheckpoint,
      Instant dataMovedAt,
      Optional<Instant> lastSuccess) {}

  private final Clock clock;
  private final Map<String, UnitState> units = new ConcurrentHashMap<>();

  UnitFreshness(PrometheusRegistry registry, Clock clock) {
    this.clock = clock;
    GaugeWithCallback.builder()
        .name(MetricNames.UNIT_INTERVAL)
        .help("The unit's interval_secs")
        .labelNames("source")
        .callback(
            callback ->
                units.forEach((source, unit) -> callback.call(unit.intervalSeconds, source)))
        .register(registry);
    GaugeWithCallback.builder()
        .name(MetricNames.LAST_SUCCESS)
        .help("When the unit's last successful tick ended, epoch seconds")
        .labelNames("source")
        .callback(
            callback ->
                units.forEach(
                    (source, unit) ->
                        unit.lastSuccess.ifPresent(at -> callback.call(epochSeconds(at), source))))
        .register(registry);
    GaugeWithCallback.builder()
        .name(MetricNames.CHECKPOINT_AGE)
        .help(
            "Seconds since the unit's checkpoint was committed (a unit without one: since its last"
                + " successful tick)")
        .labelNames("source")
        .callback(
            callback -> {
              Instant now = clock.instant();
              units.forEach(
                  (source, unit) ->
                      callback.call(Math.max(0, secondsBetween(unit.dataMovedAt, now)), source));
            })
        .register(registry);
  }

  /**
   * Starts the gauges of unit {@code source}, replacing any it had.
   *
   * @param keepsCheckpoint whether the unit commits a checkpoint (its data moves with it)
   * @param checkpointWrittenAt when its checkpoint file was last written, if there is one: the age
   *     survives a restart
   */
  public void register(
      String source,
      Duration interval,
      boolean keepsCheckpoint,
      Optional<Instant> checkpointWrittenAt) {
    Instant movedAt =
        keepsCheckpoint ? checkpointWrittenAt.orElse(clock.instant()) : clock.instant();
    units.put(
        source,
        new UnitState(interval.toMillis() / 1000.0, keepsCheckpoint, movedAt, Optional.empty()));
  }

  /** Stops the gauges of unit {@code source}: it was removed or disabled. */
  public void forget(String source) {
    units.remove(source);
  }

  void checkpointCommitted(String source) {
    Instant now = clock.instant();
    units.computeIfPresent(
        source,
        (key, unit) ->
            new UnitState(unit.intervalSeconds, unit.keepsCheckpoint, now, unit.lastSuccess));
  }

  void tickSucceeded(String source) {
    Instant now = clock.instant();
    units.computeIfPresent(
        source,
        (key, unit) ->
            new UnitState(
                unit.intervalSeconds,
                unit.keepsCheckpoint,
                unit.keepsCheckpoint ? unit.dataMovedAt : now,
                Optional.of(now)));
  }

  private static double epochSeconds(Instant at) {
    return at.toEpochMilli() / 1000.0;
  }

  private static double secondsBetween(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }
}
