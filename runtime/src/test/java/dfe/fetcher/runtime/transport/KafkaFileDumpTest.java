package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSource;
import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.dlq.DeadLetterQueue;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.tick.BatchLimits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * File dump units landing on a real KRaft broker (Kafka's test kit, one per class): what a consumer
 * of the topic reads back is reassembled and compared with the input files.
 */
class KafkaFileDumpTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STORE = "inventory.hosts";
  private static LocalKafka kafka;

  @TempDir Path directory;
  private Path data;
  private String topic;
  private String dlqTopic;
  private FetcherMetrics metrics;
  private KafkaTransport transport;
  private BatchLimits batchLimits = new BatchLimits(100, 1 << 20, 60_000);

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
    data = Files.createDirectories(directory.resolve("data"));
    String name = test.getTestMethod().orElseThrow().getName();
    topic = "t-" + name + "_land";
    dlqTopic = "dlq-" + name;
    kafka.createTopic(topic, 3, Map.of());
    kafka.createTopic(dlqTopic, 1, Map.of());
    metrics = new FetcherMetrics();
    transport = newTransport();
  }

  private KafkaTransport newTransport() {
    return new KafkaTransport(
        kafka.bootstrapServers(),
        Map.of(
            // Short enough for the broker-stopped test, long enough for a loaded CI machine.
            "delivery.timeout.ms", "12000",
            "request.timeout.ms", "5000",
            "max.block.ms", "6000",
            "reconnect.backoff.max.ms", "500"),
        OversizePolicy.DEFAULT.maxRecordBytes(),
        TopicCreation.OFF);
  }

  private UnitRunner runner() {
    return new UnitRunner(
        new TickContext(
            transport,
            Optional.of(new DeadLetterQueue(dlqTopic, Clock.systemUTC())),
            OversizePolicy.DEFAULT,
            batchLimits,
            new FileCursorStore(directory.resolve("state"), Clock.systemUTC()),
            metrics,
            Clock.systemUTC(),
            new UuidV7Generator(),
            () -> false));
  }

  private BoundUnit unit(RowFilterStage filter) {
    FileDumpSource source =
        new FileDumpSource(
            new FileDumpSpec(List.of("data/*.ndjson"), directory, Decoder.AUTO), Clock.systemUTC());
    return new BoundUnit(
        new UnitSpec("inventory", "hosts", Shape.DUMP, Optional.of("/id")),
        topic,
        topic.substring(0, topic.length() - "_land".length()),
        source,
        "test.inventory.hosts",
        () -> filter,
        Optional.of(Mark.Kind.FILE));
  }

  private static List<String> rows(String prefix, int count) {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add("{\"id\":\"" + prefix + i + "\",\"alive\":" + (i % 3 != 0) + ",\"n\":" + i + "}");
    }
    return rows;
  }

  private void write(String name, long changedAtSecond, List<String> rows) throws IOException {
    Path file = data.resolve(name);
    Files.writeString(file, String.join("\n", rows) + "\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(changedAtSecond)));
  }

  private Reassembler reassembled() {
    Reassembler reassembler = Reassembler.retainingRecords();
    for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(topic)) {
      try {
        reassembler.accept(record.value());
      } catch (InvalidFrameException e) {
        throw new AssertionError("a message on " + topic + " is not a frame", e);
      }
    }
    return reassembler;
  }

  private List<List<String>> completeSnapshots(Reassembler reassembler) {
    List<List<String>> snapshots = new ArrayList<>();
    for (SnapshotReport report : reassembler.reports()) {
      if (report.status() == SnapshotStatus.COMPLETE) {
        snapshots.add(
            reassembler.rows(report.snapshotId()).stream().map(RawRecord::toString).toList());
      }
    }
    return snapshots;
  }

  @Test
  void everyFileLandsAsACompleteSnapshotKeyedByStoreWithRoutingHeaders() throws Exception {
    List<String> first = rows("a", 250);
    List<String> second = rows("b", 3);
    write("a.ndjson", 100, first);
    write("b.ndjson", 200, second);

    assertThat(runner().runTick(unit(RowFilterStage.KEEP_ALL)))
        .isInstanceOf(TickOutcome.Succeeded.class);

    List<ConsumerRecord<byte[], byte[]>> landed = kafka.readAll(topic);
    assertThat(landed).hasSize(2 + 250 + 2 + 3);
    for (ConsumerRecord<byte[], byte[]> record : landed) {
      JsonNode frame = JSON.readTree(record.value());
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(STORE);
      assertThat(header(record, "dfe-kind")).isEqualTo(frame.get("kind").asText());
      assertThat(header(record, "dfe-snapshot-id")).isEqualTo(frame.get("snapshot_id").asText());
      assertThat(header(record, "dfe-seq")).isEqualTo(frame.get("seq").asText());
    }
    assertThat(landed)
        .extracting(ConsumerRecord::partition)
        .containsOnly(landed.get(0).partition());
    Reassembler reassembler = reassembled();
    assertThat(reassembler.reports())
        .extracting(SnapshotReport::status)
        .containsOnly(SnapshotStatus.COMPLETE);
    assertThat(completeSnapshots(reassembler)).containsExactlyInAnyOrder(first, second);
  }

  @Test
  void theBrokerStoppingMidDumpAbortsTheTickAndTheNextTickLandsTheFileWhole() throws Exception {
    batchLimits = new BatchLimits(50, 1 << 20, 60_000);
    List<String> rows = rows("h", 2000);
    write("a.ndjson", 100, rows);
    AtomicInteger seen = new AtomicInteger();
    RowFilterStage stopBrokerAtRow500 =
        RowFilterStage.of(
            json -> {
              if (seen.incrementAndGet() == 500) {
                kafka.stopBroker();
              }
              return true;
            });

    TickOutcome failed = runner().runTick(unit(stopBrokerAtRow500));

    assertThat(failed).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) failed).reason()).contains("landing failed");
    assertThat(metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "aborted")).isEqualTo(1);
    assertThat(metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "complete")).isZero();
    assertThat(directory.resolve("state/test.inventory.hosts.json")).doesNotExist();

    kafka.startBroker();
    assertThat(runner().runTick(unit(RowFilterStage.KEEP_ALL)))
        .isInstanceOf(TickOutcome.Succeeded.class);
    Reassembler reassembler = reassembled();
    List<SnapshotReport> reports = reassembler.reports();
    assertThat(reports).filteredOn(r -> r.status() == SnapshotStatus.COMPLETE).hasSize(1);
    assertThat(reports)
        .filteredOn(r -> r.status() != SnapshotStatus.COMPLETE)
        .extracting(SnapshotReport::status)
        .containsOnly(SnapshotStatus.OPEN);
    assertThat(completeSnapshots(reassembler)).containsExactly(rows);
    assertThat(directory.resolve("state/test.inventory.hosts.json")).exists();
  }

  @Test
  void aRowTheTopicRefusesAsTooLargeBecomesAStubAtItsSeqAndTheSnapshotCompletes() throws Exception {
    String small = "t-small_land";
    kafka.createTopic(small, 1, Map.of("max.message.bytes", "4096"));
    topic = small;
    byte[] noise = new byte[6000];
    new Random(3).nextBytes(noise);
    String big = "{\"id\":\"big\",\"blob\":\"" + Base64.getEncoder().encodeToString(noise) + "\"}";
    write("a.ndjson", 100, List.of("{\"id\":\"a\"}", big, "{\"id\":\"c\"}"));

    assertThat(runner().runTick(unit(RowFilterStage.KEEP_ALL)))
        .isInstanceOf(TickOutcome.Succeeded.class);

    Reassembler reassembler = reassembled();
    SnapshotReport report = reassembler.reports().get(0);
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.rowCount()).hasValue(3);
    assertThat(reassembler.stubKeys(report.snapshotId()))
        .containsExactly(Map.entry(1L, Optional.of("big")));
    assertThat(
            kafka.readAll(small).stream()
                .map(record -> new String(record.value(), StandardCharsets.UTF_8))
                .filter(value -> value.startsWith("{\"kind\":\"oversize\""))
                .toList())
        .singleElement()
        .asString()
        .contains("\"seq\":1", "\"bytes\":" + big.length(), "\"row_key\":\"big\"");
    List<ConsumerRecord<byte[], byte[]>> dlq = kafka.readAll(dlqTopic);
    assertThat(dlq).hasSize(1);
    JsonNode entry = JSON.readTree(dlq.get(0).value());
    assertThat(entry.get("reason").asText()).startsWith("transport refused the record: ");
    assertThat(entry.get("seq").asLong()).isEqualTo(1);
    assertThat(entry.get("destination").asText()).isEqualTo(small);
    assertThat(metrics.counterValue(MetricNames.DLQ, STORE, "refused")).isEqualTo(1);
    assertThat(directory.resolve("state/test.inventory.hosts.json")).exists();
  }

  @Test
  void sameChangeTimeFilesRestartFromCheckpointAndTheFilterHoldThroughKafka() throws Exception {
    RowFilterStage aliveOnly =
        RowFilterStage.of(
            json -> !new String(json, StandardCharsets.UTF_8).contains("\"alive\":false"));
    write("a.ndjson", 100, rows("a", 6));
    write("b.ndjson", 100, rows("b", 6));
    runner().runTick(unit(aliveOnly));

    transport.close();
    transport = newTransport(); // a restarted process: new producer, same cursor directory
    write("c.ndjson", 300, rows("c", 3));
    runner().runTick(unit(aliveOnly));

    Reassembler reassembler = reassembled();
    assertThat(reassembler.reports()).hasSize(3);
    List<List<String>> snapshots = completeSnapshots(reassembler);
    assertThat(snapshots)
        .containsExactlyInAnyOrder(alive(rows("a", 6)), alive(rows("b", 6)), alive(rows("c", 3)));
  }

  private static List<String> alive(List<String> rows) {
    return rows.stream().filter(row -> !row.contains("\"alive\":false")).toList();
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
