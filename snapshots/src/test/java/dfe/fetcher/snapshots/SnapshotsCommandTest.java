package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.envelope.UuidV7Generator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotsCommandTest {

  @TempDir Path directory;

  private final SnapshotWriter writer =
      SnapshotWriter.open(
          "inventory.hosts",
          Clock.fixed(Instant.parse("2026-05-01T12:00:00.123Z"), ZoneOffset.UTC),
          new UuidV7Generator());

  private List<Frame> dumpOfThree() {
    List<Frame> frames = new ArrayList<>();
    frames.add(writer.begin());
    for (int i = 0; i < 3; i++) {
      frames.add(writer.row(RawRecord.of("{\"id\":\"" + i + "\"}")));
    }
    frames.add(writer.end());
    return frames;
  }

  private static byte[] lines(List<Frame> frames) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Frame frame : frames) {
      out.writeBytes(FrameCodec.encode(frame));
      out.write('\n');
    }
    return out.toByteArray();
  }

  private Path file(String name, byte[] content) throws IOException {
    return Files.write(directory.resolve(name), content);
  }

  @Test
  void theTableHasOneLinePerSnapshotAndASummary() throws IOException {
    Path landed = file("landed.ndjson", lines(dumpOfThree()));
    CommandRun run = CommandRun.of("snapshots", "verify", landed.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.outLines()).hasSize(3);
    assertThat(run.outLines().get(0)).startsWith("STORE").contains("STATUS");
    assertThat(run.outLines().get(1))
        .startsWith("inventory.hosts")
        .contains(writer.snapshotId().substring(24))
        .contains("complete");
    assertThat(run.outLines().get(2))
        .isEqualTo("1 snapshot: 1 complete, 0 truncated, 0 open, 0 conflict; 0 lines not a frame");
  }

  @Test
  void aTruncatedSnapshotNamesItsMissingSeqsAndExitsThree() throws IOException {
    List<Frame> frames = dumpOfThree();
    frames.remove(2);
    CommandRun run =
        CommandRun.of("snapshots", "verify", file("t.ndjson", lines(frames)).toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.outLines().get(1)).contains("truncated").contains("missing 1");
  }

  @Test
  void framesSplitOverSeveralFilesMakeOneSnapshot() throws IOException {
    List<Frame> frames = dumpOfThree();
    Path first = file("a.ndjson", lines(frames.subList(0, 2)));
    Path second = file("b.ndjson", lines(frames.subList(2, frames.size())));
    CommandRun run =
        CommandRun.of(
            "snapshots", "verify", "--format", "json", second.toString(), first.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("\"status\":\"complete\"").contains("\"rows\":3");
  }

  @Test
  void aDashReadsStandardInput() {
    CommandRun run =
        CommandRun.withStdin(lines(dumpOfThree()), "snapshots", "verify", "--format", "json", "-");
    assertThat(run.exitCode()).isZero();
    assertThat(run.outLines()).hasSize(1);
  }

  @Test
  void anInvalidLineOnStandardInputIsReportedAsDashAndLine() {
    byte[] input = "\n{\"kind\":\"row\"}\n".getBytes(StandardCharsets.UTF_8);
    CommandRun run = CommandRun.withStdin(input, "snapshots", "verify", "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("-:2: missing snapshot_id\n");
  }

  @Test
  void aFileThatCannotBeReadIsReportedAndTheOthersAreStillRead() throws IOException {
    Path landed = file("landed.ndjson", lines(dumpOfThree()));
    String missing = directory.resolve("absent.ndjson").toString();
    CommandRun run = CommandRun.of("snapshots", "verify", missing, landed.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith(missing + ": cannot read: ");
    assertThat(run.out()).contains("1 complete");
  }

  @Test
  void aLineLongerThanTheReadBufferIsOneFrame() throws IOException {
    String big = "x".repeat(300_000);
    SnapshotWriter bigWriter =
        SnapshotWriter.open("a.big", Clock.systemUTC(), new UuidV7Generator());
    List<Frame> frames = List.of(bigWriter.row(RawRecord.of("\"" + big + "\"")), bigWriter.end());
    Path landed = file("big.ndjson", lines(frames));

    CommandRun run =
        CommandRun.of("snapshots", "rows", "--snapshot", bigWriter.snapshotId(), landed.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("\"" + big + "\"\n");
  }

  @Test
  void rowsPrintsTheRecordBytesAsTheyWereSent() throws IOException {
    SnapshotWriter verbatim = SnapshotWriter.open("a.b", Clock.systemUTC(), new UuidV7Generator());
    String record = "{ \"b\" : 1.50, \"a\" : [ true ] }";
    Path landed =
        file("v.ndjson", lines(List.of(verbatim.row(RawRecord.of(record)), verbatim.end())));

    CommandRun run =
        CommandRun.of("snapshots", "rows", "--snapshot", verbatim.snapshotId(), landed.toString());
    assertThat(run.out()).isEqualTo(record + "\n");
  }

  @Test
  void rowsTakesTheIdAsVerifysTableShowsIt() throws IOException {
    List<Frame> first = dumpOfThree();
    SnapshotWriter other = SnapshotWriter.open("a.b", Clock.systemUTC(), new UuidV7Generator());
    List<Frame> second = List.of(other.row(RawRecord.of("{\"x\":1}")), other.end());
    List<Frame> both = new ArrayList<>(first);
    both.addAll(second);
    Path landed = file("both.ndjson", lines(both));
    String id = writer.snapshotId();

    CommandRun bySuffix =
        CommandRun.of(
            "snapshots",
            "rows",
            "--snapshot",
            "…" + id.substring(id.length() - 12),
            landed.toString());
    CommandRun byPrefix =
        CommandRun.of("snapshots", "rows", "--snapshot", id.substring(0, 30), landed.toString());

    assertThat(bySuffix.exitCode()).as(bySuffix.err()).isZero();
    assertThat(bySuffix.outLines())
        .containsExactly("{\"id\":\"0\"}", "{\"id\":\"1\"}", "{\"id\":\"2\"}");
    assertThat(byPrefix.outLines()).isEqualTo(bySuffix.outLines());
  }

  @Test
  void anIdPartThatMatchesTwoSnapshotsNamesBothAndPrintsNothing() throws IOException {
    List<Frame> both = new ArrayList<>(dumpOfThree());
    SnapshotWriter sameMillisecond =
        SnapshotWriter.open(
            "inventory.hosts",
            Clock.fixed(Instant.parse("2026-05-01T12:00:00.123Z"), ZoneOffset.UTC),
            new UuidV7Generator());
    both.add(sameMillisecond.begin());
    both.add(sameMillisecond.end());
    Path landed = file("twice.ndjson", lines(both));
    // UUIDv7 ids begin with their millisecond: these two share their first 12 hex digits.
    String shared = writer.snapshotId().substring(0, 8);

    CommandRun run = CommandRun.of("snapshots", "rows", "--snapshot", shared, landed.toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("matches 2 snapshots").contains("give more of its id");
  }

  @Test
  void rowsOfAFileThatCannotBeReadExitTwoAsTheReadmeSays() {
    CommandRun run =
        CommandRun.of(
            "snapshots", "rows", "--snapshot", "x", directory.resolve("missing.ndjson").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("missing.ndjson: cannot read");
  }

  @Test
  void rowsOfASnapshotThatIsNotInTheInputExitThree() throws IOException {
    Path landed = file("landed.ndjson", lines(dumpOfThree()));
    CommandRun run = CommandRun.of("snapshots", "rows", "--snapshot", "nope", landed.toString());
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).contains("snapshot nope: no frame of it was read");
  }

  @Test
  void anUnknownFormatIsAUsageError() {
    CommandRun run = CommandRun.of("snapshots", "verify", "--format", "xml", "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--format");
  }
}
