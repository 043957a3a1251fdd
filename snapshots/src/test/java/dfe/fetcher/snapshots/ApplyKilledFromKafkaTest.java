package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.testkit.LocalKafka;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

/**
 * {@code snapshots apply} from a topic, killed with SIGKILL in a child JVM while it stages: the
 * table keeps the snapshot swapped in before, and a rerun of the same group resumes from the
 * committed offsets and ends with the new snapshot.
 */
class ApplyKilledFromKafkaTest {

  private static final String STORE = "inventory.hosts";
  private static final int NEW_ROWS = 200_000;
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

  private List<String> args(String topic) {
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
    return args;
  }

  @Test
  void killedWhileStagingItResumesFromTheCommittedOffsetsAndConverges() throws Exception {
    String topic = "apply-killed-" + schema.name();
    kafka.createTopic(topic, 2, Map.of());
    SnapshotFrames old = SnapshotFrames.dump(STORE, 1, "{\"id\":\"old-1\"}", "{\"id\":\"old-2\"}");
    Path newDump = directory.resolve("new.ndjson");
    String newId =
        SnapshotFrames.write(newDump, STORE, 2, NEW_ROWS, i -> "{\"id\":\"new-" + i + "\"}");
    List<String> lines = new ArrayList<>(old.lines());
    lines.addAll(Files.readAllLines(newDump));
    produce(topic, lines);

    Path log = directory.resolve("apply.log");
    List<String> command =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                "dfe.fetcher.snapshots.SnapshotsMain"));
    command.addAll(args(topic));
    Process apply =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> (holds(old.id()) && stagedRows(newId) > 0) || !apply.isAlive());
      assertThat(apply.isAlive()).as(Files.readString(log)).isTrue();
    } finally {
      apply.destroyForcibly();
      assertThat(apply.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(schema.rows("hosts")).containsOnlyKeys("old-1", "old-2");

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rerun =
        SnapshotsMain.run(
            args(topic).toArray(String[]::new),
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(rerun).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("applied snapshot=");
    assertThat(schema.scalar("SELECT count(*) || ' ' || min(id) FROM ${schema}.hosts"))
        .isEqualTo(NEW_ROWS + " new-0");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  /** Whether the table holds {@code snapshotId} (the staging of the next may start before). */
  private boolean holds(String snapshotId) throws Exception {
    if (schema.scalar("SELECT to_regclass('${schema}.dfe_fetcher_apply')") == null) {
      return false;
    }
    return snapshotId.equals(schema.scalar("SELECT snapshot_id FROM ${schema}.dfe_fetcher_apply"));
  }

  /** Rows staged for {@code snapshotId}; 0 before its staging table exists. */
  private long stagedRows(String snapshotId) throws Exception {
    String stage = "hosts__stage_" + snapshotId.substring(snapshotId.length() - 12);
    if (schema.scalar("SELECT to_regclass('${schema}." + stage + "')") == null) {
      return 0;
    }
    return Long.parseLong(schema.scalar("SELECT count(*) FROM ${schema}." + stage));
  }

  private static void produce(String topic, List<String> lines) throws Exception {
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.LINGER_MS_CONFIG,
            20);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      int i = 0;
      for (String line : lines) {
        producer.send(
            new ProducerRecord<>(topic, i++ % 2, null, line.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }
}
