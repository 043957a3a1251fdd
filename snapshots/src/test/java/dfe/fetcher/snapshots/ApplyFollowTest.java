package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.testkit.LocalKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code snapshots apply --follow} as a child process: applies dumps as they land, counts them. */
class ApplyFollowTest {

  private static final String STORE = "inventory.hosts";
  private static LocalKafka kafka;
  private PostgresSchema schema;
  @TempDir Path directory;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  @BeforeEach
  void createSchema() throws Exception {
    schema = PostgresSchema.create();
  }

  @AfterEach
  void dropSchema() throws Exception {
    schema.close();
  }

  private static void produce(String topic, List<String> lines) throws Exception {
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      for (String line : lines) {
        producer.send(new ProducerRecord<>(topic, line.getBytes(StandardCharsets.UTF_8))).get();
      }
    }
  }

  @Test
  void followingAppliesEachDumpAsItCompletesAndCountsItOnMetrics() throws Exception {
    String topic = "apply-follow-" + schema.name();
    kafka.createTopic(topic, 1, Map.of());
    Path log = directory.resolve("apply.log");
    List<String> command =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                "dfe.fetcher.snapshots.SnapshotsMain",
                "snapshots",
                "apply"));
    command.addAll(schema.target("hosts"));
    command.addAll(
        List.of(
            "--key",
            "/id",
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            topic,
            "--follow",
            "--metrics-address",
            "127.0.0.1:0"));
    SnapshotFrames second = dump(STORE, 2, "{\"id\":\"c\"}");
    Process apply =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      Pattern listening = Pattern.compile("metrics on 127\\.0\\.0\\.1:(\\d+)");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> listening.matcher(read(log)).find() || !apply.isAlive());
      Matcher port = listening.matcher(read(log));
      assertThat(port.find()).as(read(log)).isTrue();

      produce(topic, dump(STORE, 1, "{\"id\":\"a\"}", "{\"id\":\"b\"}").lines());
      await().atMost(Duration.ofSeconds(30)).until(() -> tableKeys().equals("a,b"));
      produce(topic, second.withoutEnd());
      produce(topic, second.lines().subList(second.lines().size() - 1, second.lines().size()));
      await().atMost(Duration.ofSeconds(30)).until(() -> tableKeys().equals("c"));

      String metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port.group(1) + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains(
              "dfe_fetcher_apply_snapshots_total{outcome=\"applied\",table=\""
                  + schema.table("hosts")
                  + "\"} 2.0")
          .contains("dfe_fetcher_apply_rows_total{table=\"" + schema.table("hosts") + "\"} 3.0");

      apply.destroy();
      assertThat(apply.waitFor(30, TimeUnit.SECONDS)).as(read(log)).isTrue();
    } finally {
      apply.destroyForcibly();
    }
    assertThat(read(log)).contains("applied snapshot=" + second.id());
  }

  private String tableKeys() throws Exception {
    String keys = schema.scalar("SELECT string_agg(id, ',' ORDER BY id) FROM ${schema}.hosts");
    return keys == null ? "" : keys;
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "";
  }
}
