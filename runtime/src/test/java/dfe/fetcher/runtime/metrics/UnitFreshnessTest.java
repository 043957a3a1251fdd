package dfe.fetcher.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.metrics.MetricNames;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class UnitFreshnessTest {

  private static final Instant START = Instant.parse("2026-05-01T12:00:00Z");

  private final SteppedClock clock = new SteppedClock(START);
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final FetcherMetrics metrics = new FetcherMetrics(registry, clock);

  @Test
  void aUnitWithACheckpointAgesFromItsLastCommitNotFromItsLastSuccess() {
    metrics.freshness().register("inventory.hosts", Duration.ofSeconds(60), true, Optional.empty());
    clock.advance(Duration.ofSeconds(30));
    metrics.checkpointCommitted("inventory.hosts");
    clock.advance(Duration.ofSeconds(90));
    metrics.tickSucceeded("inventory.hosts"); // an idle tick: nothing committed
    clock.advance(Duration.ofSeconds(10));

    assertThat(gauge(MetricNames.CHECKPOINT_AGE)).containsEntry("inventory.hosts", 100.0);
    assertThat(gauge(MetricNames.LAST_SUCCESS))
        .containsEntry("inventory.hosts", START.plusSeconds(120).getEpochSecond() * 1.0);
    assertThat(gauge(MetricNames.UNIT_INTERVAL)).containsEntry("inventory.hosts", 60.0);
  }

  @Test
  void aDumpWithoutACheckpointAgesFromItsLastSuccessfulTick() {
    metrics.freshness().register("crm.accounts", Duration.ofSeconds(300), false, Optional.empty());
    clock.advance(Duration.ofSeconds(50));
    metrics.tickSucceeded("crm.accounts");
    clock.advance(Duration.ofSeconds(7));

    assertThat(gauge(MetricNames.CHECKPOINT_AGE)).containsEntry("crm.accounts", 7.0);
  }

  @Test
  void beforeAnyCommitTheAgeCountsFromTheCheckpointFileOrElseFromTheStart() {
    metrics
        .freshness()
        .register(
            "crm.events", Duration.ofSeconds(60), true, Optional.of(START.minusSeconds(3600)));
    metrics.freshness().register("inventory.new", Duration.ofSeconds(60), true, Optional.empty());
    clock.advance(Duration.ofSeconds(5));

    assertThat(gauge(MetricNames.CHECKPOINT_AGE))
        .containsEntry("crm.events", 3605.0)
        .containsEntry("inventory.new", 5.0);
    assertThat(gauge(MetricNames.LAST_SUCCESS)).as("no success yet: no series").isEmpty();
  }

  @Test
  void aForgottenUnitHasNoSeriesAndLaterEventsDoNotBringItBack() {
    metrics.freshness().register("inventory.hosts", Duration.ofSeconds(60), true, Optional.empty());
    metrics.freshness().forget("inventory.hosts");
    metrics.checkpointCommitted("inventory.hosts");
    metrics.tickSucceeded("inventory.hosts");

    assertThat(gauge(MetricNames.CHECKPOINT_AGE)).isEmpty();
    assertThat(gauge(MetricNames.UNIT_INTERVAL)).isEmpty();
  }

  @Test
  void readinessIsAskedAtEachScrape() {
    boolean[] ready = {true};
    metrics.registerReadiness(() -> ready[0]);
    assertThat(gauge(MetricNames.READY)).containsEntry("", 1.0);
    ready[0] = false;
    assertThat(gauge(MetricNames.READY)).containsEntry("", 0.0);
  }

  /** The gauge's values by their {@code source} label ("" for none). */
  private Map<String, Double> gauge(String name) {
    Map<String, Double> values = new TreeMap<>();
    for (MetricSnapshot snapshot : registry.scrape()) {
      if (snapshot.getMetadata().getPrometheusName().equals(name)) {
        for (GaugeSnapshot.GaugeDataPointSnapshot point :
            ((GaugeSnapshot) snapshot).getDataPoints()) {
          String source = point.getLabels().get("source");
          values.put(source == null ? "" : source, point.getValue());
        }
      }
    }
    return values;
  }

  private static final class SteppedClock extends Clock {
    private Instant now;

    SteppedClock(Instant start) {
      now = start;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
