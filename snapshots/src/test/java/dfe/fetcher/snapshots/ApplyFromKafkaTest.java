package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.testkit.LocalKafka;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code snapshots apply} from a real broker: group offsets and the changes topic. */
class ApplyFromKafkaTest {

  private static final String STORE = "inventory.hosts";
  private static LocalKafka kafka;
  private PostgresSchema schema;

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

  private record Run(int exitCode, List<String> out, String err) {}

  private Run apply(String topic, String... extra) {
    List<String> args = new ArrayList<>(List.of("snapshots", "apply"));
    args.addAll(schema.target("hosts"));
    args.addAll(
        List.of(
            "--key",
            "/id",
            "--bootstrap-server",
            kafka.bootstrapServers(),
            "--topic",
            topic,
            "--group",
            "apply-" + schema.name()));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SnapshotsMain.run(
            args.toArray(String[]::new),
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    return new Run(
        code,
        printed.isEmpty() ? List.of() : printed.lines().toList(),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Produces lines round-robin over the topic's partitions; returns each line's offset. */
  private static List<RecordMetadata> produce(String topic, int partitions, List<String> lines)
      throws Exception {
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      int i = 0;
      for (String line : lines) {
        sent.add(
            producer.send(
                new ProducerRecord<>(
                    topic, i++ % partitions, null, line.getBytes(StandardCharsets.UTF_8))));
      }
    }
    List<RecordMetadata> offsets = new ArrayList<>();
    for (Future<RecordMetadata> future : sent) {
      offsets.add(future.get());
    }
    return offsets;
  }

  private Map<TopicPartition, OffsetAndMetadata> committed() throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      return admin
          .listConsumerGroupOffsets("apply-" + schema.name())
          .partitionsToOffsetAndMetadata()
          .get();
    }
  }

  private static SnapshotFrames hosts(int minute, String... ids) {
    String[] records = new String[ids.length];
    for (int i = 0; i < ids.length; i++) {
      records[i] = "{\"id\":\"" + ids[i] + "\",\"seen\":" + minute + "}";
    }
    return dump(STORE, minute, records);
  }

  @Test
  void offsetsStopBeforeAnUnfinishedDumpAndARerunCompletesIt() throws Exception {
    String topic = "apply-resume-" + schema.name();
    kafka.createTopic(topic, 2, Map.of());
    SnapshotFrames first = hosts(1, "a", "b", "c");
    SnapshotFrames second = hosts(2, "b", "c", "d", "e");
    List<String> secondLines = second.shuffledWithDuplicates(5);
    int half = secondLines.size() / 2;
    produce(topic, 2, first.lines());
    List<RecordMetadata> secondStart = produce(topic, 2, secondLines.subList(0, half));

    Run run = apply(topic);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.out()).first().asString().startsWith("applied snapshot=" + first.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("a", "b", "c");
    Map<TopicPartition, OffsetAndMetadata> committed = committed();
    for (int partition = 0; partition < 2; partition++) {
      int p = partition;
      long firstOfSecond =
          secondStart.stream()
              .filter(m -> m.partition() == p)
              .mapToLong(RecordMetadata::offset)
              .min()
              .orElseThrow();
      assertThat(committed.get(new TopicPartition(topic, partition)).offset())
          .as("partition %d stops at the unfinished dump's first frame", partition)
          .isEqualTo(firstOfSecond);
    }

    produce(topic, 2, secondLines.subList(half, secondLines.size()));
    Run rerun = apply(topic);

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(rerun.out())
        .containsExactly(
            "applied snapshot="
                + second.id()
                + " store="
                + STORE
                + " rows=4 stubs=0 table="
                + schema.table("hosts"));
    assertThat(schema.rows("hosts")).containsOnlyKeys("b", "c", "d", "e");
    Map<TopicPartition, OffsetAndMetadata> end = committed();
    assertThat(end.values().stream().mapToLong(OffsetAndMetadata::offset).sum())
        .isEqualTo(first.lines().size() + secondLines.size());
  }

  @Test
  void theChangesTopicGetsEveryChangeAndATombstonePerRemovedKey() throws Exception {
    String topic = "apply-changes-" + schema.name();
    String changes = topic + "-changes";
    kafka.createTopic(topic, 1, Map.of());
    kafka.createTopic(changes, 1, Map.of("cleanup.policy", "compact"));
    produce(topic, 1, hosts(1, "a", "b").lines());
    assertThat(apply(topic, "--changes-topic", changes).exitCode()).isZero();
    SnapshotFrames second =
        dump(STORE, 2, "{\"id\":\"b\",\"seen\":2}", "{\"id\":\"c\",\"seen\":1}");
    produce(topic, 1, second.lines());

    Run run = apply(topic, "--changes-topic", changes);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .containsExactly(
            "applied snapshot="
                + second.id()
                + " store="
                + STORE
                + " rows=2 stubs=0 added=1 removed=1 changed=1 table="
                + schema.table("hosts"));
    List<String> published =
        kafka.readAll(changes).stream()
            .map(ApplyFromKafkaTest::describe)
            .collect(Collectors.toList());
    assertThat(published.subList(0, 2))
        .containsExactlyInAnyOrder(
            "\"a\" -> {\"op\":\"add\",\"key\":\"a\",\"before\":null,\"after\":{\"id\": \"a\", \"seen\": 1}}",
            "\"b\" -> {\"op\":\"add\",\"key\":\"b\",\"before\":null,\"after\":{\"id\": \"b\", \"seen\": 1}}");
    assertThat(published.subList(2, published.size()))
        .containsExactlyInAnyOrder(
            "\"a\" -> {\"op\":\"remove\",\"key\":\"a\",\"before\":{\"id\": \"a\", \"seen\": 1},\"after\":null}",
            "\"a\" -> null",
            "\"b\" -> {\"op\":\"change\",\"key\":\"b\",\"before\":{\"id\": \"b\", \"seen\": 1},"
                + "\"after\":{\"id\": \"b\", \"seen\": 2}}",
            "\"c\" -> {\"op\":\"add\",\"key\":\"c\",\"before\":null,\"after\":{\"id\": \"c\", \"seen\": 1}}");
    assertThat(published.indexOf("\"a\" -> null"))
        .as("the tombstone follows its remove")
        .isGreaterThan(
            published.indexOf(
                published.stream().filter(p -> p.contains("remove")).findFirst().orElseThrow()));
  }

  private static String describe(ConsumerRecord<byte[], byte[]> record) {
    return new String(record.key(), StandardCharsets.UTF_8)
        + " -> "
        + (record.value() == null ? "null" : new String(record.value(), StandardCharsets.UTF_8));
  }
}
