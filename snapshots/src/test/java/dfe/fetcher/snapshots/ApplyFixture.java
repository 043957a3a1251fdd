package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.SnapshotFrames.dump;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the {@code snapshots apply} tests run against: a schema of its own in the test PostgreSQL
 * for every test, and for the tests that read a topic one broker for the whole class; with the
 * command lines that point {@code apply} at them, run in this JVM or a child one.
 *
 * <p>Registered on a static field ({@code @RegisterExtension static final ApplyFixture fixture =
 * ApplyFixture.withKafka();}), so the broker lives as long as the class. Before each test, and
 * before the class's own {@code @BeforeEach} methods, it creates the schema and sets every {@link
 * PostgresSchema} field of the test instance to it (as {@code @TempDir} sets a path), so a test
 * reads {@code schema.rows("hosts")}; the schema is dropped after the class's {@code @AfterEach}
 * methods.
 */
final class ApplyFixture
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  /** The store of the dumps the tests apply. */
  static final String STORE = "inventory.hosts";

  /** The table they apply them to, in the test's schema. */
  static final String TABLE = "hosts";

  private final boolean startsKafka;
  private LocalKafka kafka;
  private PostgresSchema schema;

  private ApplyFixture(boolean startsKafka) {
    this.startsKafka = startsKafka;
  }

  /** A schema per test, no broker. */
  static ApplyFixture postgres() {
    return new ApplyFixture(false);
  }

  /** A schema per test and a broker for the class. */
  static ApplyFixture withKafka() {
    return new ApplyFixture(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (startsKafka) {
      kafka = LocalKafka.start();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    schema = PostgresSchema.create();
    Object test = context.getRequiredTestInstance();
    for (Field field : test.getClass().getDeclaredFields()) {
      if (field.getType() == PostgresSchema.class && !Modifier.isStatic(field.getModifiers())) {
        field.setAccessible(true);
        field.set(test, schema);
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    schema.close();
  }

  LocalKafka kafka() {
    if (kafka == null) {
      throw new IllegalStateException("no broker: register ApplyFixture.withKafka()");
    }
    return kafka;
  }

  /**
   * {@code snapshots apply} into this test's {@value #TABLE} keyed by {@code /id}, then {@code
   * more}.
   */
  List<String> apply(String... more) {
    List<String> args = new ArrayList<>(List.of("snapshots", "apply"));
    args.addAll(schema.target(TABLE));
    args.addAll(List.of("--key", "/id"));
    args.addAll(List.of(more));
    return args;
  }

  /** As {@link #apply}, reading {@code topic} from the broker. */
  List<String> applyFromTopic(String topic, String... more) {
    List<String> args = apply("--bootstrap-server", kafka().bootstrapServers(), "--topic", topic);
    args.addAll(List.of(more));
    return args;
  }

  /** The consumer group a test applies as: one per schema, so no two tests share offsets. */
  String group() {
    return "apply-" + schema.name();
  }

  /** Produces {@code lines} round-robin over the topic's partitions; each line's offset. */
  List<RecordMetadata> produce(String topic, int partitions, List<String> lines) throws Exception {
    Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka().bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.LINGER_MS_CONFIG,
            20);
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

  /**
   * Starts {@code dfe-fetcher ARGS...} (the arguments starting with {@code snapshots}) in a child
   * JVM on this test's class path, in {@code log}'s directory, its stdout and stderr to {@code
   * log}: a process the test can kill.
   */
  static Process start(List<String> args, Path log) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                SnapshotsMain.class.getName()));
    command.addAll(args);
    return new ProcessBuilder(command)
        .directory(log.getParent().toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /**
   * A dump of {@value #STORE} at {@code minute}, a record {@code {"id":ID,"seen":minute}} per id.
   */
  static SnapshotFrames hosts(int minute, String... ids) {
    String[] records = new String[ids.length];
    for (int i = 0; i < ids.length; i++) {
      records[i] = "{\"id\":\"" + ids[i] + "\",\"seen\":" + minute + "}";
    }
    return dump(STORE, minute, records);
  }
}
