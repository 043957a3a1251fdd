package dfe.fetcher.connect;

import dfe.fetcher.runtime.tick.TickOutcome;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each unit's run of failed ticks in a row, so a unit failing every tick does not hide behind a
 * task Connect reports {@code RUNNING}: the run is the gauge {@value #METRIC}{@code
 * {source="<store>"}} on the task's JMX bean, every failure in a row is logged as {@code
 * event=unit_failing} with the count, a success after failures as {@code event=unit_recovered}, and
 * with {@value #SETTING} set the run that reaches it is reported as the task's failure. A stopped
 * tick (a stop, a rebalance) neither counts nor resets.
 */
final class FailureStreaks {

  static final String METRIC = "dfe_fetcher_consecutive_tick_failures";
  static final String SETTING = "dfe.task.max_consecutive_failures";

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.connect");

  private final Gauge gauge;
  private final OptionalInt max;
  private final Map<String, Integer> runs = new ConcurrentHashMap<>();

  /**
   * @param max the run that fails the task; empty for never
   */
  FailureStreaks(PrometheusRegistry registry, OptionalInt max) {
    this.gauge =
        Gauge.builder()
            .name(METRIC)
            .help("Ticks of the unit that failed in a row, 0 after a success")
            .labelNames("source")
            .register(registry);
    this.max = max;
  }

  /** The unit's gauge, at 0 from the start. */
  void register(String store) {
    gauge.labelValues(store).set(0);
  }

  /**
   * Counts {@code outcome} of a tick of {@code store}.
   *
   * @return why the task must fail, when this failure made the run reach {@value #SETTING}
   */
  Optional<String> record(String store, TickOutcome outcome) {
    if (outcome instanceof TickOutcome.Failed failed) {
      int run = runs.merge(store, 1, Integer::sum);
      gauge.labelValues(store).set(run);
      LOG.warn(
          "event=unit_failing unit={} consecutive_failures={} max={}",
          store,
          run,
          max.isPresent() ? Integer.toString(max.getAsInt()) : "off");
      if (max.isPresent() && run >= max.getAsInt()) {
        return Optional.of(
            store
                + " failed "
                + run
                + " consecutive ticks ("
                + SETTING
                + "="
                + max.getAsInt()
                + "); the last: "
                + failed.reason());
      }
    } else if (outcome instanceof TickOutcome.Succeeded) {
      Integer ended = runs.remove(store);
      gauge.labelValues(store).set(0);
      if (ended != null) {
        LOG.info("event=unit_recovered unit={} after_failures={}", store, ended);
      }
    }
    return Optional.empty();
  }
}
