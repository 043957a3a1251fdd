package dfe.fetcher.connect.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.connect.DfeSourceConnector;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exactly once on two workers ({@code exactly.once.source.support=enabled}, {@code
 * transaction.boundary=connector}): each dump snapshot is one transaction committed at its end, so
 * a {@code read_committed} consumer sees a snapshot whole or not at all: not while it is being
 * read, not when its tick fails half way, and not when the worker running it is taken down.
 */
class ExactlyOnceConnectTest {

  private static ConnectCluster cluster;
  private static GatedApi api;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("dfe-eos", true);
    api = new GatedApi();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (api != null) {
      api.close();
    }
  }

  private static Map<String, String> connector(String endpoint, String topic) {
    String yaml =
        """
        instance_id: eos
        # Each frame handed over as it comes, so a dump held half way is on the topic.
        output: {batch: {max_rows: 1}}
        sources:
          rest:
            api:
              topic: %s
              interval_secs: 1
              vars: {host: "%s"}
              profile:
                base_url: "{{ vars.host }}"
                retry: {max_retries: 0}
                endpoints:
                  - {unit: assets, shape: dump, path: %s, row_key: /id,
                     rows: {decoder: json_array}, paginate: {type: link_header}}
        """
            .formatted(topic, api.url(), endpoint);
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DfeSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("dfe.config", yaml);
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    return config;
  }

  @Test
  void aDumpCutByItsWorkerIsNeverSeenByAReadCommittedConsumer() {
    cluster.createTopics("cut-assets_land");
    cluster.connect().configureConnector("cut", connector("/assets", "cut"));
    ConnectorStateInfo.TaskState task = cluster.runningTasks("cut", 1).get(0);
    await().atMost(Duration.ofSeconds(30)).until(() -> api.heldRequests() >= 1);
    // Begin and the first row are on the topic, inside the open transaction (exactly once, a full
    // batch waits for the next message: the second row is held while the second page is read).
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> cluster.readAll("cut-assets_land", false).size() >= 2);
    assertThat(cluster.readAll("cut-assets_land", true))
        .as("read_committed sees nothing of a snapshot being read")
        .isEmpty();

    cluster.removeWorker(cluster.workerOf(task));
    api.open();

    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () ->
                assertThat(cluster.completeSnapshots("cut-assets_land", true))
                    .isNotEmpty()
                    .allSatisfy(
                        rows ->
                            assertThat(rows)
                                .containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}")));
    assertThat(cluster.statuses("cut-assets_land", true))
        .as("read_committed: whole snapshots only")
        .containsOnly(SnapshotStatus.COMPLETE);
    assertThat(cluster.statuses("cut-assets_land", false))
        .as("the cut dump's frames are in the log, aborted")
        .contains(SnapshotStatus.OPEN);
    cluster.connect().deleteConnector("cut");
  }

  @Test
  void aTickThatFailsHalfWayAbortsItsTransactionAndTheNextTickLandsTheDumpWhole() {
    cluster.createTopics("flaky-assets_land");
    cluster.connect().configureConnector("flaky", connector("/flaky", "flaky"));
    cluster.runningTasks("flaky", 1);
    // The second page fails only once the begin and the first row are on the topic, so that the
    // abort has frames to take back.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> cluster.readAll("flaky-assets_land", false).size() >= 2);
    api.failFlaky();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(cluster.completeSnapshots("flaky-assets_land", true))
                    .first()
                    .isEqualTo(List.of("{\"id\":1}", "{\"id\":2}", "{\"id\":3}")));
    assertThat(cluster.statuses("flaky-assets_land", true)).containsOnly(SnapshotStatus.COMPLETE);
    assertThat(cluster.statuses("flaky-assets_land", false))
        .as("the failed tick's begin and first row were sent, then aborted")
        .contains(SnapshotStatus.OPEN);
    cluster.connect().deleteConnector("flaky");
  }
}
