package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.ConnectionUnits;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import dfe.fetcher.runtime.tick.BatchLimits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.testkit.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resumable PostgreSQL dump ({@code resume: by_key}) landing on a real KRaft broker: a tick that
 * fails after frames landed that were never acknowledged, rows changed before the next tick, and
 * the next tick continuing the same snapshot after what landed, so a consumer sees one complete
 * snapshot with no conflict.
 */
class ResumableDumpKafkaTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final int ROWS = 2_000;
  private static LocalKafka kafka;

  @TempDir Path directory;
  private String table;
  private String topic;
  private KafkaTransport kafkaTransport;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    String name = test.getTestMethod().orElseThrow().getName();
    table = "resume_" + Math.abs(name.hashCode());
    topic = "crm-" + table + "_land";
    kafka.createTopic(topic, 1, Map.of());
    sql(
        "DROP TABLE IF EXISTS " + table,
        "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, name TEXT NOT NULL)",
        "INSERT INTO "
            + table
            + " SELECT i, 'n' || i FROM generate_series(1, "
            + ROWS
            + ") AS s(i) ORDER BY random()");
    kafkaTransport =
        new KafkaTransport(kafka.bootstrapServers(), Map.of(), 921_600, TopicCreation.OFF);
  }

  @AfterEach
  void tearDown() throws Exception {
    kafkaTransport.close();
    sql("DROP TABLE IF EXISTS " + table);
  }

  @Test
  void framesThatLandedUnacknowledgedAreReadBackSoARowChangedAfterTheKillKeepsItsOneSeq()
      throws Exception {
    BoundUnit unit = unit();
    FileCursorStore cursors = new FileCursorStore(directory.resolve("state"), Clock.systemUTC());
    LandsButFailsAfter cut = new LandsButFailsAfter(kafkaTransport, 1_250);

    TickOutcome first = runner(cut, cursors).runTick(unit);

    assertThat(first).isInstanceOf(TickOutcome.Failed.class);
    DumpResumeMark mark = (DumpResumeMark) cursors.load(unit.cursorKey()).orElseThrow();
    assertThat(mark.ended()).isFalse();
    // Committed after an acknowledged chunk (chunk_rows: 300), at the seq that chunk ends before.
    assertThat(mark.nextSeq()).isPositive().isEqualTo(mark.nextSeq() / 300 * 300);
    Map<Long, Integer> landedBefore = rowFramesBySeq(kafka.readAll(topic));
    // The stretch: frames that landed beyond what the checkpoint says was acknowledged.
    assertThat((long) landedBefore.size()).isGreaterThan(mark.nextSeq());
    long unacknowledged = mark.nextSeq() + 10; // seq n is id n + 1: landed, never acknowledged
    long changedAhead = ROWS - 100;
    sql(
        "UPDATE "
            + table
            + " SET name = 'changed' WHERE id IN ("
            + (unacknowledged + 1)
            + ", 3, "
            + changedAhead
            + ")",
        "DELETE FROM " + table + " WHERE id = " + (ROWS - 50),
        "INSERT INTO " + table + " VALUES (" + (ROWS + 1) + ", 'new')");

    TickOutcome second = runner(kafkaTransport, cursors).runTick(unit);

    assertThat(second).isInstanceOf(TickOutcome.Succeeded.class);
    List<ConsumerRecord<byte[], byte[]>> landed = kafka.readAll(topic);
    Reassembler reassembler = Reassembler.retainingRecords();
    landed.forEach(record -> accept(reassembler, record.value()));
    List<SnapshotReport> reports = reassembler.reports();
    assertThat(reports).hasSize(1);
    SnapshotReport report = reports.get(0);
    assertThat(report.status()).as("%s", report).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.snapshotId()).isEqualTo(mark.snapshotId());
    assertThat(report.rowCount()).hasValue(ROWS);
    // Every seq exactly once on the topic: nothing that landed was sent again.
    Map<Long, Integer> bySeq = rowFramesBySeq(landed);
    assertThat(bySeq).hasSize(ROWS);
    assertThat(bySeq.values()).containsOnly(1);
    Map<Long, String> names = namesById(reassembler.rows(report.snapshotId()));
    assertThat(names).hasSize(ROWS);
    assertThat(names.get(unacknowledged + 1)).isEqualTo("n" + (unacknowledged + 1));
    assertThat(names.get(3L)).isEqualTo("n3");
    assertThat(names.get(changedAhead)).isEqualTo("changed");
    assertThat(names).doesNotContainKey((long) ROWS - 50).containsEntry(ROWS + 1L, "new");
    assertThat(frames(landed, "begin")).isEqualTo(1);
    assertThat(frames(landed, "end")).isEqualTo(1);
    assertThat(((DumpResumeMark) cursors.load(unit.cursorKey()).orElseThrow()).ended()).isTrue();
  }

  @Test
  void theTickAfterAnEndedSnapshotOpensANewOne() throws Exception {
    BoundUnit unit = unit();
    FileCursorStore cursors = new FileCursorStore(directory.resolve("state"), Clock.systemUTC());

    assertThat(runner(kafkaTransport, cursors).runTick(unit))
        .isInstanceOf(TickOutcome.Succeeded.class);
    assertThat(runner(kafkaTransport, cursors).runTick(unit))
        .isInstanceOf(TickOutcome.Succeeded.class);

    Reassembler reassembler = Reassembler.verifyOnly();
    kafka.readAll(topic).forEach(record -> accept(reassembler, record.value()));
    assertThat(reassembler.reports())
        .hasSize(2)
        .extracting(SnapshotReport::status)
        .containsOnly(SnapshotStatus.COMPLETE);
  }

  private BoundUnit unit() {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            """
            instance_id: test
            output:
              type: kafka
              kafka: {bootstrap_servers: "%s"}
              batch: {max_rows: 100, linger_ms: 0}
            cursor: {directory: state}
            sources:
              db:
                crm:
                  url: %s
                  user: postgres
                  topic: crm
                  stores:
                    - {unit: %s, shape: dump, query: "SELECT id, name FROM %s", key: [id],
                       resume: by_key, chunk_rows: 300}
            """
                .formatted(kafka.bootstrapServers(), URL, table, table));
    FetcherConfig loaded = workspace.load(config);
    return ConnectionUnits.wire(
            loaded,
            loaded.connections().get(0),
            new SourceRuntime(Clock.systemUTC(), loaded.oversize()),
            () -> RowFilterStage.KEEP_ALL,
            store -> true)
        .units()
        .get(0);
  }

  private static UnitRunner runner(Transport transport, FileCursorStore cursors) {
    return new UnitRunner(
        new TickContext(
            transport,
            Optional.empty(),
            dfe.fetcher.core.oversize.OversizePolicy.DEFAULT,
            new BatchLimits(100, 1 << 20, 60_000),
            cursors,
            new FetcherMetrics(),
            Clock.systemUTC(),
            new UuidV7Generator(),
            () -> false));
  }

  /**
   * Lands every batch on Kafka, but once {@code acknowledged} records were acknowledged it reports
   * each further batch failed after it landed: the frames a kill leaves landed but unacknowledged.
   */
  private static final class LandsButFailsAfter implements Transport {
    private final Transport delegate;
    private final long acknowledged;
    private final AtomicLong sent = new AtomicLong();

    LandsButFailsAfter(Transport delegate, long acknowledged) {
      this.delegate = delegate;
      this.acknowledged = acknowledged;
    }

    @Override
    public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
      CompletableFuture<SendResult> landed = delegate.send(batch);
      if (sent.addAndGet(batch.size()) <= acknowledged) {
        return landed;
      }
      landed.join();
      return CompletableFuture.failedFuture(
          new TransportException("the process was killed before the acknowledgement", null));
    }

    @Override
    public boolean readsBack() {
      return true;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void close() {}
  }

  private static Map<Long, Integer> rowFramesBySeq(List<ConsumerRecord<byte[], byte[]>> landed) {
    Map<Long, Integer> bySeq = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : landed) {
      if (header(record, "dfe-kind").equals("row")) {
        bySeq.merge(Long.parseLong(header(record, "dfe-seq")), 1, Integer::sum);
      }
    }
    return bySeq;
  }

  private static long frames(List<ConsumerRecord<byte[], byte[]>> landed, String kind) {
    return landed.stream().filter(record -> header(record, "dfe-kind").equals(kind)).count();
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private static Map<Long, String> namesById(List<RawRecord> rows) throws Exception {
    Map<Long, String> names = new HashMap<>();
    for (RawRecord row : rows) {
      var node = JSON.readTree(row.bytes());
      assertThat(names.put(node.get("id").asLong(), node.get("name").asText())).isNull();
    }
    return names;
  }

  private static void accept(Reassembler reassembler, byte[] value) {
    try {
      reassembler.accept(value);
    } catch (Exception e) {
      throw new AssertionError("not a frame", e);
    }
  }

  private static void sql(String... statements) throws Exception {
    try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  static Optional<Mark> none() {
    return Optional.empty();
  }
}
