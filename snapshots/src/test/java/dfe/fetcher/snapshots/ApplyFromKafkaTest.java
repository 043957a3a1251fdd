package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static dfe.fetcher.snapshots.ApplyFixture.hosts;
import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code snapshots apply} from a real broker: group offsets and the changes topic. */
class ApplyFromKafkaTest {

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.withKafka();

  private PostgresSchema schema; // set by the fixture before each test

  private CommandRun apply(String topic, String... extra) {
    List<String> args = fixture.applyFromTopic(topic, "--group", fixture.group());
    args.addAll(List.of(extra));
    return CommandRun.of(args.toArray(String[]::new));
  }

  private Map<TopicPartition, OffsetAndMetadata> committed() throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, fixture.kafka().bootstrapServers()))) {
      return admin.listConsumerGroupOffsets(fixture.group()).partitionsToOffsetAndMetadata().get();
    }
  }

  @Test
  void offsetsStopBeforeAnUnfinishedDumpAndARerunCompletesIt() throws Exception {
    String topic = "apply-resume-" + schema.name();
    fixture.kafka().createTopic(topic, 2, Map.of());
    SnapshotFrames first = hosts(1, "a", "b", "c");
    SnapshotFrames second = hosts(2, "b", "c", "d", "e");
    List<String> secondLines = second.shuffledWithDuplicates(5);
    int half = secondLines.size() / 2;
    fixture.produce(topic, 2, first.lines());
    List<RecordMetadata> secondStart = fixture.produce(topic, 2, secondLines.subList(0, half));

    CommandRun run = apply(topic);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines()).first().asString().startsWith("applied snapshot=" + first.id());
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

    fixture.produce(topic, 2, secondLines.subList(half, secondLines.size()));
    CommandRun rerun = apply(topic);

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(rerun.outLines())
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
  void aRefusedSnapshotHoldsTheOffsetsSoARerunWithColumnsThatFitAppliesIt() throws Exception {
    String topic = "apply-refused-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    SnapshotFrames first = hosts(1, "a", "b");
    fixture.produce(topic, 1, first.lines());

    CommandRun refused = apply(topic, "--columns", "/id=n:bigint");

    assertThat(refused.exitCode()).as(refused.err()).isNotZero();
    assertThat(refused.outLines()).first().asString().startsWith("refused snapshot=" + first.id());
    // The refused run created the table with its columns: the operator drops it to change them.
    try (Connection connection = PostgresSchema.connect();
        Statement sql = connection.createStatement()) {
      sql.execute("DROP TABLE " + schema.table("hosts"));
    }

    CommandRun rerun = apply(topic);

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(rerun.outLines()).first().asString().startsWith("applied snapshot=" + first.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("a", "b");
  }

  @Test
  void theChangesTopicGetsEveryChangeAndATombstonePerRemovedKey() throws Exception {
    String topic = "apply-changes-" + schema.name();
    String changes = topic + "-changes";
    fixture.kafka().createTopic(topic, 1, Map.of());
    fixture.kafka().createTopic(changes, 1, Map.of("cleanup.policy", "compact"));
    fixture.produce(topic, 1, hosts(1, "a", "b").lines());
    assertThat(apply(topic, "--changes-topic", changes).exitCode()).isZero();
    SnapshotFrames second =
        dump(STORE, 2, "{\"id\":\"b\",\"seen\":2}", "{\"id\":\"c\",\"seen\":1}");
    fixture.produce(topic, 1, second.lines());

    CommandRun run = apply(topic, "--changes-topic", changes);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .containsExactly(
            "applied snapshot="
                + second.id()
                + " store="
                + STORE
                + " rows=2 stubs=0 added=1 removed=1 changed=1 table="
                + schema.table("hosts"));
    List<String> published =
        fixture.kafka().readAll(changes).stream()
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

  @Test
  void aSnapshotRefusedForAColumnThatDoesNotCastPublishesNoChange() throws Exception {
    String topic = "apply-refused-changes-" + schema.name();
    String changes = topic + "-changes";
    fixture.kafka().createTopic(topic, 1, Map.of());
    fixture.kafka().createTopic(changes, 1, Map.of("cleanup.policy", "compact"));
    String[] columns = {"--changes-topic", changes, "--columns", "/seen=seen:int"};
    fixture.produce(topic, 1, hosts(1, "a", "b").lines());
    assertThat(apply(topic, columns).exitCode()).isZero();
    assertThat(fixture.kafka().readAll(changes)).hasSize(2);
    SnapshotFrames uncastable =
        dump(STORE, 2, "{\"id\":\"b\",\"seen\":\"yesterday\"}", "{\"id\":\"c\",\"seen\":2}");
    fixture.produce(topic, 1, uncastable.lines());

    CommandRun run = apply(topic, columns);

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.outLines()).first().asString().startsWith("refused snapshot=" + uncastable.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("a", "b");
    assertThat(fixture.kafka().readAll(changes))
        .as("the two adds of the first snapshot, nothing of the refused one")
        .hasSize(2);
  }

  @Test
  void framesOfAnAbortedTransactionAreNotApplied() throws Exception {
    String topic = "apply-aborted-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    SnapshotFrames committed = hosts(1, "a");
    fixture.produce(topic, 1, committed.lines());
    produceAborted(topic, hosts(2, "x").lines());

    CommandRun run = apply(topic);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .singleElement()
        .asString()
        .startsWith("applied snapshot=" + committed.id());
    assertThat(schema.rows("hosts")).containsOnlyKeys("a");
  }

  @Test
  void framesOfAnAbortedTransactionAreNotVerified() throws Exception {
    String topic = "verify-aborted-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    SnapshotFrames committed = hosts(1, "a");
    SnapshotFrames aborted = hosts(2, "x");
    fixture.produce(topic, 1, committed.lines());
    produceAborted(topic, aborted.lines());

    CommandRun verify =
        CommandRun.of(
            "snapshots",
            "verify",
            "--bootstrap-server",
            fixture.kafka().bootstrapServers(),
            "--topic",
            topic);

    assertThat(verify.exitCode()).as(verify.err()).isZero();
    assertThat(verify.out())
        .contains("1 snapshot: 1 complete")
        .contains(committed.id().substring(committed.id().length() - 12))
        .doesNotContain(aborted.id().substring(aborted.id().length() - 12));
  }

  @Test
  void readUncommittedIsAConsumerPropertyAway() throws Exception {
    String topic = "apply-uncommitted-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    SnapshotFrames aborted = hosts(2, "x");
    produceAborted(topic, aborted.lines());

    CommandRun run = apply(topic, "--consumer-property", "isolation.level=read_uncommitted");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(schema.rows("hosts")).containsOnlyKeys("x");
  }

  /** Sends {@code lines} in one transaction of a transactional producer, then aborts it. */
  private void produceAborted(String topic, List<String> lines) {
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            fixture.kafka().bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            "aborting-" + topic,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      producer.initTransactions();
      producer.beginTransaction();
      for (String line : lines) {
        producer.send(new ProducerRecord<>(topic, 0, null, line.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
      producer.abortTransaction();
    }
  }

  private static String describe(ConsumerRecord<byte[], byte[]> record) {
    return new String(record.key(), StandardCharsets.UTF_8)
        + " -> "
        + (record.value() == null ? "null" : new String(record.value(), StandardCharsets.UTF_8));
  }
}
