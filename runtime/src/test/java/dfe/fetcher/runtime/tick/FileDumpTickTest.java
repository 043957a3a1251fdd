package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSource;
import dfe.fetcher.file.dump.FileDumpSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File dump units end to end on the embedded default: real files, the real file source, the tick,
 * the file transport and the cursor store; every landed snapshot is checked with the Reassembler.
 */
class FileDumpTickTest {

  private static final String TOPIC = "inventory-hosts_land";
  private static final String CURSOR = "test.inventory.hosts";
  private static final RowFilterStage ALIVE_ONLY =
      RowFilterStage.of(
          json -> !new String(json, StandardCharsets.UTF_8).contains("\"alive\":false"));

  @TempDir Path directory;
  private Path data;
  private Landing landing;

  @BeforeEach
  void setUp() throws IOException {
    data = Files.createDirectories(directory.resolve("data"));
    landing = new Landing(directory);
  }

  private Path write(String name, long changedAtSecond, String... lines) throws IOException {
    Path file = data.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, lines.length == 0 ? "" : String.join("\n", lines) + "\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(changedAtSecond)));
    return file;
  }

  private TickOutcome tick(RowFilterStage filter) {
    return tick(landing.runner(), filter);
  }

  /** A tick by {@code runner}, the one a service keeps from tick to tick. */
  private TickOutcome tick(UnitRunner runner, RowFilterStage filter) {
    FileDumpSource source =
        new FileDumpSource(
            new FileDumpSpec(List.of("data/**/*.ndjson*"), directory, Decoder.AUTO),
            Clock.systemUTC());
    return runner.runTick(Landing.dumpUnit(source, filter));
  }

  private TickOutcome tick() {
    return tick(RowFilterStage.KEEP_ALL);
  }

  @Test
  void eachFileLandsAsOneCompleteSnapshotOldestFirst() throws IOException {
    // Oldest by change time, which the system sets when a file is written.
    write("a.ndjson", 300, "{\"id\":\"a1\"}");
    write("b.ndjson", 200, "{\"id\":\"b1\"}", "{\"id\":\"b2\"}");

    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"a1\"}"), List.of("{\"id\":\"b1\"}", "{\"id\":\"b2\"}"));
  }

  @Test
  void whileItsCheckpointCannotBeWrittenADumpLandsItsFileOnceAndCommitsItOnceItCan()
      throws IOException {
    write("a.ndjson", 100, "{\"id\":\"a1\"}");
    UnitRunner runner = landing.runner();
    // The commit's temporary file leads to /dev/full: every write to it finds no space.
    Path temporary =
        Files.createDirectories(directory.resolve("state")).resolve(CURSOR + ".json.tmp");
    Files.createSymbolicLink(temporary, Path.of("/dev/full"));

    TickOutcome landed = tick(runner, RowFilterStage.KEEP_ALL);
    TickOutcome retried = tick(runner, RowFilterStage.KEEP_ALL);
    tick(runner, RowFilterStage.KEEP_ALL);

    assertThat(landed)
        .isInstanceOfSatisfying(
            TickOutcome.Failed.class,
            failed -> assertThat(failed.reason()).contains("No space left on device"));
    assertThat(retried)
        .isInstanceOfSatisfying(
            TickOutcome.Failed.class,
            failed ->
                assertThat(failed.reason())
                    .contains("checkpoint still not committed")
                    .contains(CURSOR + ".json"));
    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"a1\"}"));
    assertThat(runner.uncommittedKeys()).containsExactly(CURSOR);

    Files.delete(temporary);
    assertThat(tick(runner, RowFilterStage.KEEP_ALL)).isInstanceOf(TickOutcome.Succeeded.class);

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"a1\"}"));
    assertThat(landing.cursors.load(CURSOR)).isPresent();
    assertThat(runner.uncommittedKeys()).isEmpty();
  }

  @Test
  void rowsTheFilterDropsGiveTheirSeqsBackAndTheRestLandInOrder() throws IOException {
    write(
        "a.ndjson",
        100,
        "{\"id\":\"1\",\"alive\":true}",
        "{\"id\":\"2\",\"alive\":false}",
        "{\"id\":\"3\",\"alive\":false}",
        "{\"id\":\"4\",\"alive\":true}");

    tick(ALIVE_ONLY);

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"1\",\"alive\":true}", "{\"id\":\"4\",\"alive\":true}"));
    assertThat(landing.jsonLines(TOPIC))
        .filteredOn(frame -> frame.get("kind").asText().equals("end"))
        .extracting(frame -> frame.get("row_count").asLong())
        .containsExactly(2L);
  }

  @Test
  void anOversizeRowIsAStubWithItsRowKeyAndItsDlqCopyIsCutAtMaxDlqBytes() throws IOException {
    landing.oversize = new OversizePolicy(64, 16);
    String big = "{\"id\":\"huge\",\"payload\":\"" + "z".repeat(100) + "\"}";
    write("a.ndjson", 100, "{\"id\":\"small\"}", big);

    tick();

    Reassembler reassembler = landing.reassembled(TOPIC);
    SnapshotReport report = reassembler.reports().get(0);
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(reassembler.rows(report.snapshotId()))
        .extracting(Object::toString)
        .containsExactly("{\"id\":\"small\"}");
    assertThat(reassembler.stubKeys(report.snapshotId()))
        .containsExactly(Map.entry(1L, Optional.of("huge")));
    JsonNode entry = landing.jsonLines(Landing.DLQ_TOPIC).get(0);
    assertThat(Base64.getDecoder().decode(entry.get("payload").asText()))
        .isEqualTo(big.substring(0, 16).getBytes(StandardCharsets.UTF_8));
    assertThat(entry.get("seq").asLong()).isEqualTo(1);
  }

  @Test
  void anEmptyFileLandsAsAnEmptySnapshot() throws IOException {
    write("empty.ndjson", 100);
    tick();
    assertThat(landing.completeSnapshotRowsInLandingOrder()).containsExactly(List.of());
  }

  @Test
  void anIdleTickPublishesNothing() throws IOException {
    write("a.ndjson", 100, "{\"id\":\"a1\"}");
    tick();
    long landed = landing.lines(TOPIC).size();

    assertThat(tick()).isEqualTo(new TickOutcome.Succeeded(0, 0));
    assertThat(landing.lines(TOPIC)).hasSize((int) landed);
  }

  @Test
  void aRestartResumesFromTheCheckpointWithoutReEmittingCommittedFiles() throws IOException {
    write("a.ndjson", 100, "{\"id\":\"a1\"}");
    tick();
    write("b.ndjson", 200, "{\"id\":\"b1\"}");

    landing = new Landing(directory); // a new process: new transport, store and metrics
    tick();

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"a1\"}"), List.of("{\"id\":\"b1\"}"));
    assertThat(landing.cursors.load(CURSOR))
        .get()
        .extracting(mark -> ((FileMark) mark).path())
        .asString()
        .endsWith("b.ndjson");
  }

  @Test
  void twoFilesWithTheSameChangeTimeBothLand() throws IOException {
    write("a.ndjson", 100, "{\"id\":\"a1\"}");
    tick();
    write("b.ndjson", 100, "{\"id\":\"b1\"}");
    write("c.ndjson", 100, "{\"id\":\"c1\"}");

    tick();

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(
            List.of("{\"id\":\"a1\"}"), List.of("{\"id\":\"b1\"}"), List.of("{\"id\":\"c1\"}"));
  }

  @Test
  void aFileRewrittenInPlaceIsReadAgain() throws IOException {
    write("a.ndjson", 100, "{\"id\":\"v1\"}");
    tick();
    write("a.ndjson", 300, "{\"id\":\"v2\"}");

    tick();

    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"v1\"}"), List.of("{\"id\":\"v2\"}"));
  }

  @Test
  void aBadFileInTheMiddleKeepsTheEarlierFilesCommittedAndIsReadOnceFixed() throws IOException {
    // Every frame in its own batch, so the bad file's first frames land before its bad line.
    landing.batchLimits = new BatchLimits(1, 1 << 20, 60_000);
    write("a.ndjson", 100, "{\"id\":\"a1\"}");
    Path bad = write("b.ndjson", 200, "{\"id\":\"b1\"}", "{\"id\": oops}");
    write("c.ndjson", 300, "{\"id\":\"c1\"}");

    TickOutcome failed = tick();

    assertThat(failed).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) failed).reason()).contains(bad + ":2");
    Reassembler afterFailure = landing.reassembled(TOPIC);
    assertThat(afterFailure.reports())
        .extracting(SnapshotReport::status)
        .containsExactlyInAnyOrder(SnapshotStatus.COMPLETE, SnapshotStatus.OPEN);
    assertThat(landing.cursors.load(CURSOR))
        .get()
        .extracting(mark -> ((FileMark) mark).path())
        .asString()
        .endsWith("a.ndjson");

    write("b.ndjson", 200, "{\"id\":\"b1\"}", "{\"id\":\"b2\"}");
    assertThat(tick()).isInstanceOf(TickOutcome.Succeeded.class);

    List<SnapshotReport> reports = landing.reassembled(TOPIC).reports();
    assertThat(reports).filteredOn(r -> r.status() == SnapshotStatus.COMPLETE).hasSize(3);
    assertThat(reports).filteredOn(r -> r.status() == SnapshotStatus.OPEN).hasSize(1);
    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(
            List.of("{\"id\":\"a1\"}"),
            List.of("{\"id\":\"c1\"}"), // c waited only for the tick, b was fixed after it
            List.of("{\"id\":\"b1\"}", "{\"id\":\"b2\"}"));
  }

  @Test
  void gzipFilesAreReadByTheirContent() throws IOException {
    Path file = data.resolve("z.ndjson.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("{\"id\":\"g1\"}\n{\"id\":\"g2\"}\n".getBytes(StandardCharsets.UTF_8));
    }
    tick();
    assertThat(landing.completeSnapshotRowsInLandingOrder())
        .containsExactly(List.of("{\"id\":\"g1\"}", "{\"id\":\"g2\"}"));
  }
}
