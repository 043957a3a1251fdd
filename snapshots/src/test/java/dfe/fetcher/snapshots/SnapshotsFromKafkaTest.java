package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.testkit.LocalKafka;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code snapshots verify} and {@code rows} read straight from a topic report exactly what they
 * report for a file holding the same frames.
 */
class SnapshotsFromKafkaTest {

  private static final Path VECTORS =
      Path.of("..", "core", "src", "test", "resources", "conformance", "reassembler");
  private static LocalKafka kafka;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SnapshotsMain.run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Produces every non-blank line of {@code vector} to a new topic of three partitions. */
  private static String topicOf(String prefix, String vector) throws Exception {
    String topic = prefix + vector;
    kafka.createTopic(topic, 3, Map.of());
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      int i = 0;
      for (String line : Files.readAllLines(VECTORS.resolve(vector + ".ndjson"))) {
        if (!line.isBlank()) {
          // Spread over partitions, as frames of several stores would be.
          sent.add(
              producer.send(
                  new ProducerRecord<>(
                      topic, i++ % 3, null, line.getBytes(StandardCharsets.UTF_8))));
        }
      }
      for (Future<RecordMetadata> future : sent) {
        future.get();
      }
    }
    return topic;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "large_shuffled_with_duplicates",
        "two_snapshots_interleaved",
        "truncated_missing_middle",
        "conflict_two_ends_disagree",
        "invalid_lines_are_reported_and_skipped",
        "oversize_stubs_count"
      })
  void verifyFromATopicAgreesWithVerifyingAFileOfTheSameFrames(String vector) throws Exception {
    String topic = topicOf("verify-", vector);
    String file = VECTORS.resolve(vector + ".ndjson").toString();

    Run fromFile = run("snapshots", "verify", "--format", "json", file);
    Run fromTopic =
        run(
            "snapshots",
            "verify",
            "--format",
            "json",
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            topic);

    assertThat(fromTopic.exitCode()).isEqualTo(fromFile.exitCode());
    assertThat(fromTopic.out()).isEqualTo(fromFile.out());
    assertThat(fromTopic.err().lines().count()).isEqualTo(fromFile.err().lines().count());
    assertThat(fromTopic.err().lines())
        .allSatisfy(line -> assertThat(line).matches(topic + ":\\d+:\\d+: .+"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"large_shuffled_with_duplicates", "oversize_stubs_count"})
  void rowsFromATopicAreTheRowsOfTheFile(String vector) throws Exception {
    String file = VECTORS.resolve(vector + ".ndjson").toString();
    String id =
        run("snapshots", "verify", "--format", "json", file)
            .out()
            .lines()
            .findFirst()
            .orElseThrow()
            .replaceAll(".*\"snapshot_id\":\"([^\"]+)\".*", "$1");
    String produced = topicOf("rows-", vector);

    Run fromFile = run("snapshots", "rows", "--snapshot", id, file);
    Run fromTopic =
        run(
            "snapshots",
            "rows",
            "--snapshot",
            id,
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            produced);

    assertThat(fromTopic.exitCode()).isEqualTo(fromFile.exitCode()).isZero();
    assertThat(fromTopic.out()).isEqualTo(fromFile.out()).isNotEmpty();
  }

  @Test
  void aTopicThatDoesNotExistIsReportedAndExitsTwo() {
    Run run =
        run(
            "snapshots",
            "verify",
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            "no-such-topic");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("no-such-topic: cannot read");
  }
}
