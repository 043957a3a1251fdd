package dfe.fetcher.connect.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.connect.DfeSourceConnector;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a task shows and bounds trouble on a real cluster: a record the broker refuses. */
class TaskHealthConnectTest {

  private static ConnectCluster cluster;
  @TempDir static Path directory;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("dfe-health", false);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Map<String, String> connector(String yaml) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DfeSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("dfe.config", yaml);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    return config;
  }

  private static ConnectorStateInfo.TaskState failedTask(String connector) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              try {
                return cluster.connect().connectorStatus(connector).tasks().stream()
                    .anyMatch(task -> task.state().equals("FAILED"));
              } catch (RuntimeException notYet) {
                return false;
              }
            });
    return cluster.connect().connectorStatus(connector).tasks().get(0);
  }

  @Test
  void aRecordTheBrokerRefusesFailsTheTaskAndLeavesTheSnapshotWithoutAnEnd() throws Exception {
    Path files = Files.createDirectories(directory.resolve("wide"));
    String wide = "{\"id\":\"wide\",\"blob\":\"" + "x".repeat(50_000) + "\"}";
    Files.writeString(files.resolve("a.ndjson"), "{\"id\":\"a\"}\n" + wide + "\n");
    String yaml =
        """
        instance_id: wide
        sources:
          file:
            wide:
              topic: wide
              interval_secs: 3600
              units:
                - {unit: rows, row_key: /id, dump: {paths: ["%s/*.ndjson"]}}
        """
            .formatted(files);
    // The topic takes less than the oversize policy lets through (900 KiB by default).
    cluster
        .connect()
        .kafka()
        .createTopic("wide-rows_land", 1, 1, Map.of("max.message.bytes", "20000"));
    cluster.connect().configureConnector("wide", connector(yaml));

    ConnectorStateInfo.TaskState task = failedTask("wide");

    assertThat(task.trace()).contains("RecordTooLargeException");
    assertThat(cluster.statuses("wide-rows_land", false)).doesNotContain(SnapshotStatus.COMPLETE);
    cluster.connect().deleteConnector("wide");

    // The documented remedy: a max_record_bytes the topic takes makes the row a stub.
    cluster
        .connect()
        .kafka()
        .createTopic("narrow-rows_land", 1, 1, Map.of("max.message.bytes", "20000"));
    String narrow =
        yaml.replace("instance_id: wide", "instance_id: narrow")
            .replace("wide:\n      topic: wide", "narrow:\n      topic: narrow")
            .replace(
                "sources:", "oversize: {max_record_bytes: 10000, max_dlq_bytes: 1000}\nsources:");
    cluster.connect().configureConnector("narrow", connector(narrow));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> cluster.statuses("narrow-rows_land", false).contains(SnapshotStatus.COMPLETE));
    Reassembler reassembler = cluster.reassembled("narrow-rows_land", false);
    String id = reassembler.reports().get(0).snapshotId();
    assertThat(reassembler.stubKeys(id)).containsExactly(Map.entry(1L, Optional.of("wide")));
    cluster.connect().deleteConnector("narrow");
  }
}
