package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.runtime.cursor.StoredCheckpoint;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a service knows of its units ({@link FetcherService#status}), the series it exposes before
 * the first tick, and {@link FetcherService#runUnitsOnce}.
 */
class FetcherServiceStatusTest {

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private FetcherService service;

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
    service =
        FetcherService.create(workspace.load(workspace.oneGoodOneBroken()), Clock.systemUTC());
  }

  @AfterEach
  void tearDown() {
    service.close();
  }

  private Map<String, UnitStatus> status() {
    return service.status().stream()
        .collect(Collectors.toMap(UnitStatus::store, Function.identity()));
  }

  @Test
  void beforeTheFirstTickEveryUnitIsKnownWithNoTickAndNoCheckpoint() {
    Map<String, UnitStatus> status = status();

    assertThat(status).containsOnlyKeys("inventory.hosts", "broken.feed");
    UnitStatus hosts = status.get("inventory.hosts");
    assertThat(hosts.ticks().lastTickEnd()).isEmpty();
    assertThat(hosts.lastOutcome()).isEmpty();
    assertThat(hosts.nextRun()).as("not started").isEmpty();
    assertThat(hosts.checkpoint()).contains(new StoredCheckpoint.None());
    assertThat(hosts.shape()).isEqualTo("dump");
  }

  @Test
  void afterTheFirstTicksEachUnitHasItsOutcomeItsLastSuccessItsNextRunAndItsCheckpoint() {
    Instant started = Instant.now();
    service.start();

    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                status().values().stream()
                    .allMatch(unit -> unit.ticks().lastTickEnd().isPresent()));

    UnitStatus hosts = status().get("inventory.hosts");
    assertThat(hosts.lastOutcome()).contains("succeeded");
    assertThat(hosts.ticks().lastSuccess()).isEqualTo(hosts.ticks().lastTickEnd());
    assertThat(hosts.ticks().runningSince()).isEmpty();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> status().get("inventory.hosts").nextRun().isPresent());
    assertThat(status().get("inventory.hosts").nextRun().get())
        .isAfter(started.plus(Duration.ofMinutes(59)));
    assertThat(hosts.checkpoint().get().kind()).isEqualTo("file");
    assertThat(hosts.checkpoint().get().description()).contains("a.ndjson");

    UnitStatus feed = status().get("broken.feed");
    assertThat(feed.lastOutcome()).contains("failed");
    assertThat(feed.lastFailure().get()).contains("bad.ndjson:1").contains("not valid JSON");
    assertThat(feed.ticks().lastSuccess()).isEmpty();
  }

  @Test
  void runUnitsOnceRunsOnlyTheNamedUnits() throws Exception {
    assertThat(service.stores()).containsExactly("inventory.hosts", "broken.feed");

    assertThat(service.runUnitsOnce(Set.of("inventory.hosts"))).containsOnlyKeys("inventory.hosts");

    assertThat(workspace.completeSnapshots("inventory-hosts_land")).isEqualTo(1);
    assertThat(workspace.lines("broken-feed_land")).isEmpty();
  }

  @Test
  void everyUnitsCounterSeriesExistAtZeroBeforeItsFirstTick() {
    Map<String, List<String>> series = seriesOf("inventory.hosts");

    assertThat(series)
        .containsEntry("dfe_fetcher_tick_failures", List.of("0.0"))
        .containsEntry("dfe_fetcher_records", List.of("0.0"))
        .containsEntry("dfe_fetcher_records_filtered", List.of("0.0"))
        .containsEntry("dfe_fetcher_filter_errors", List.of("0.0"))
        .containsEntry("dfe_fetcher_checkpoint_commits", List.of("0.0"))
        .containsEntry("dfe_fetcher_snapshot_rows", List.of("0.0"))
        .containsEntry("dfe_fetcher_snapshot_rows_oversize", List.of("0.0"))
        .containsEntry("dfe_fetcher_snapshots", List.of("0.0", "0.0"))
        .containsEntry("dfe_fetcher_dlq", List.of("0.0", "0.0"));
    assertThat(seriesOf("broken.feed")).containsKey("dfe_fetcher_tick_failures");
  }

  /** The counter series whose source or store label is {@code unit}, name to values. */
  private Map<String, List<String>> seriesOf(String unit) {
    Map<String, List<String>> series = new TreeMap<>();
    for (MetricSnapshot metric : service.metrics().registry().scrape()) {
      for (DataPointSnapshot point : metric.getDataPoints()) {
        String source = point.getLabels().get("source");
        String store = point.getLabels().get("store");
        if (!unit.equals(source) && !unit.equals(store)) {
          continue;
        }
        if (point instanceof CounterSnapshot.CounterDataPointSnapshot counter) {
          series
              .computeIfAbsent(metric.getMetadata().getName(), name -> new ArrayList<>())
              .add(Double.toString(counter.getValue()));
        }
      }
    }
    return series;
  }

  @Test
  void theServiceIsNotReadyWhileAUnitsCheckpointCannotBeCommitted() throws Exception {
    // The commit's temporary file of inventory.hosts leads to /dev/full: no space for it.
    Path temporary =
        Files.createDirectories(workspace.state()).resolve("test.inventory.hosts.json.tmp");
    Files.createSymbolicLink(temporary, Path.of("/dev/full"));
    assertThat(service.isReady()).as("before the first tick").isTrue();

    service.runUnitsOnce(Set.of("inventory.hosts"));

    assertThat(service.isReady()).as("while the commit fails").isFalse();
    Files.delete(temporary);
    service.runUnitsOnce(Set.of("inventory.hosts"));
    assertThat(service.isReady()).as("once a commit worked").isTrue();
  }
}
