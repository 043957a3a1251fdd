package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.dlq.DeadLetterQueue;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.transport.FileTransport;
import dfe.fetcher.runtime.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A landing directory with the real file transport, cursor store and metrics, and the checks a
 * consumer would make of what landed: every snapshot reassembled and its rows compared.
 */
final class Landing {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String DLQ_TOPIC = "dfe_fetcher_dlq";

  final Path directory;
  final FileTransport files;
  final ControllableTransport transport;

  /** What the tick sends to: the controllable transport, unless a test puts something before it. */
  Transport output;

  final FileCursorStore cursors;
  final FetcherMetrics metrics = new FetcherMetrics();
  final AtomicBoolean stopping = new AtomicBoolean();
  OversizePolicy oversize = OversizePolicy.DEFAULT;
  BatchLimits batchLimits = new BatchLimits(3, 1 << 20, 60_000);
  boolean deadLettersEnabled = true;

  Landing(Path directory) {
    this.directory = directory;
    this.files = new FileTransport(directory.resolve("landing"));
    this.transport = new ControllableTransport(files);
    this.output = transport;
    this.cursors = new FileCursorStore(directory.resolve("state"), Clock.systemUTC());
  }

  TickContext context() {
    return new TickContext(
        output,
        deadLettersEnabled
            ? Optional.of(new DeadLetterQueue(DLQ_TOPIC, Clock.systemUTC()))
            : Optional.empty(),
        oversize,
        batchLimits,
        cursors,
        metrics,
        Clock.systemUTC(),
        new UuidV7Generator(),
        stopping::get);
  }

  UnitRunner runner() {
    return new UnitRunner(context());
  }

  static BoundUnit dumpUnit(RowSource source, RowFilterStage filter) {
    return new BoundUnit(
        new UnitSpec("inventory", "hosts", Shape.DUMP, Optional.of("/id")),
        "inventory-hosts_land",
        "inventory-hosts",
        source,
        "test.inventory.hosts",
        () -> filter,
        Optional.of(Mark.Kind.FILE));
  }

  /** A dump unit with nothing to resume from: a database or REST dump. */
  static BoundUnit positionlessDumpUnit(RowSource source) {
    return new BoundUnit(
        new UnitSpec("inventory", "hosts", Shape.DUMP, Optional.of("/id")),
        "inventory-hosts_land",
        "inventory-hosts",
        source,
        "test.inventory.hosts",
        () -> RowFilterStage.KEEP_ALL,
        Optional.empty());
  }

  static BoundUnit tailUnit(RowSource source, RowFilterStage filter) {
    return new BoundUnit(
        new UnitSpec("events", "feed", Shape.TAIL, Optional.of("/id")),
        "events_land",
        "events",
        source,
        "test.events.feed",
        () -> filter,
        Optional.of(Mark.Kind.FILE));
  }

  List<byte[]> lines(String topic) {
    Path file = files.fileOf(topic);
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      List<byte[]> lines = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        lines.add(line.getBytes(StandardCharsets.UTF_8));
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<JsonNode> jsonLines(String topic) {
    List<JsonNode> nodes = new ArrayList<>();
    for (byte[] line : lines(topic)) {
      try {
        nodes.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return nodes;
  }

  /** Every frame of the topic fed to a Reassembler that keeps records. */
  Reassembler reassembled(String topic) {
    Reassembler reassembler = Reassembler.retainingRecords();
    for (byte[] line : lines(topic)) {
      try {
        reassembler.accept(line);
      } catch (InvalidFrameException e) {
        throw new AssertionError("landed a line that is not a frame: " + e.getMessage(), e);
      }
    }
    return reassembler;
  }

  /**
   * The rows of each complete snapshot, in the order the snapshots' end frames landed, as JSON
   * text; snapshots that are not complete are left out.
   */
  List<List<String>> completeSnapshotRowsInLandingOrder() {
    Reassembler reassembler = reassembled(TOPIC_OF_DUMPS);
    List<List<String>> snapshots = new ArrayList<>();
    for (JsonNode frame : jsonLines(TOPIC_OF_DUMPS)) {
      String id = frame.get("snapshot_id").asText();
      if (frame.get("kind").asText().equals("end")
          && reassembler.status(id).orElseThrow() == SnapshotStatus.COMPLETE) {
        snapshots.add(reassembler.rows(id).stream().map(RawRecord::toString).toList());
      }
    }
    return snapshots;
  }

  static final String TOPIC_OF_DUMPS = "inventory-hosts_land";

  /** The rows of each complete snapshot, in snapshot order, as JSON text. */
  List<List<String>> completeSnapshotRows(String topic) {
    Reassembler reassembler = reassembled(topic);
    List<List<String>> snapshots = new ArrayList<>();
    for (SnapshotReport report : reassembler.reports()) {
      assertThat(report.status()).as(report.toString()).isEqualTo(SnapshotStatus.COMPLETE);
      snapshots.add(
          reassembler.rows(report.snapshotId()).stream().map(RawRecord::toString).toList());
    }
    return snapshots;
  }
}
