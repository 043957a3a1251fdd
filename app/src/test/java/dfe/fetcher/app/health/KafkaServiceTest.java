package dfe.fetcher.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.testkit.LocalKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service with {@code output.type: kafka}: configured, started, ready or not. */
class KafkaServiceTest {

  private static LocalKafka kafka;
  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path directory;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  private String config(String bootstrapServers, String createTopics) {
    return """
        instance_id: test
        output:
          type: kafka
          kafka:
            bootstrap_servers: "%s"
            create_topics: %s
            properties:
              max.block.ms: 5000
              delivery.timeout.ms: 12000
              request.timeout.ms: 5000
        dlq: {topic: svc_dlq}
        cursor: {directory: state}
        metrics: {address: "127.0.0.1:0"}
        sources:
          file:
            inventory:
              topic: inventory
              interval_secs: 1
              filter: "record.alive == true"
              units:
                - unit: hosts
                  row_key: /id
                  dump: {paths: ["data/*.ndjson"]}
        """
        .formatted(bootstrapServers, createTopics);
  }

  private int status(HealthServer health, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + health.port() + path)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  @Test
  void startingWithTheClusterUnreachableKeepsRunningNotReadyAndRetries() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    workspace.write("data/a.ndjson", FetcherWorkspace.ndjson("{\"id\":\"a\",\"alive\":true}"));
    Path file = workspace.config(config("127.0.0.1:1", "false"));

    FetcherConfig config = workspace.load(file);
    try (FetcherService service = FetcherService.create(config, Clock.systemUTC());
        HealthServer health = HealthServer.serve(service, config.metrics())) {
      service.start();

      assertThat(status(health, "/livez")).isEqualTo(200);
      assertThat(status(health, "/readyz")).isEqualTo(503);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  service.metrics().counterValue(MetricNames.TICK_FAILURES, "inventory.hosts")
                      >= 2);
      assertThat(status(health, "/livez")).isEqualTo(200);
      assertThat(workspace.directory().resolve("state/test.inventory.hosts.json")).doesNotExist();
    }
  }

  @Test
  void withTheClusterUpTheServiceIsReadyAndLandsCompleteSnapshots() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    workspace.write(
        "data/a.ndjson",
        FetcherWorkspace.ndjson(
            "{\"id\":\"a\",\"alive\":true}",
            "{\"id\":\"b\",\"alive\":false}",
            "{\"id\":\"c\",\"alive\":true}"));
    Path file = workspace.config(config(kafka.bootstrapServers(), "true"));

    FetcherConfig config = workspace.load(file);
    try (FetcherService service = FetcherService.create(config, Clock.systemUTC());
        HealthServer health = HealthServer.serve(service, config.metrics())) {
      Map<String, TickOutcome> outcomes = service.runOnce();
      assertThat(outcomes.get("inventory.hosts")).isInstanceOf(TickOutcome.Succeeded.class);
      service.start();
      assertThat(status(health, "/readyz")).isEqualTo(200);
    }

    Reassembler reassembler = Reassembler.retainingRecords();
    for (ConsumerRecord<byte[], byte[]> record : kafka.readAll("inventory-hosts_land")) {
      try {
        reassembler.accept(record.value());
      } catch (InvalidFrameException e) {
        throw new AssertionError(e);
      }
    }
    SnapshotReport report = reassembler.reports().get(0);
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(reassembler.rows(report.snapshotId()))
        .extracting(Object::toString)
        .containsExactly("{\"id\":\"a\",\"alive\":true}", "{\"id\":\"c\",\"alive\":true}");
  }
}
