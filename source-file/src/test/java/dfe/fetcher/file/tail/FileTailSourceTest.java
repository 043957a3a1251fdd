package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.FileTailMark;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTailSourceTest {

  @TempDir Path dir;
  private final List<TailHarness> harnesses = new ArrayList<>();

  @AfterEach
  void closeSources() {
    harnesses.forEach(TailHarness::close);
  }

  private TailHarness tail(TailSpecs specs) {
    TailHarness harness = specs.harness();
    harnesses.add(harness);
    return harness;
  }

  private Path append(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(
        file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return file;
  }

  private static String lines(String prefix, int from, int to) {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      text.append(prefix).append(i).append('\n');
    }
    return text.toString();
  }

  private static List<String> names(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
  }

  @Test
  void linesAppendedWhileTailingLandOnceEachInOrder() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "one\ntwo\n");
    tail.read();
    append("app.log", "three\n");
    tail.read();
    tail.read();
    append("app.log", "four\nfive\n");
    tail.read();

    assertThat(tail.values()).containsExactly("one", "two", "three", "four", "five");
  }

  @Test
  void aReadFollowsAFileThatGrowsWhileItIsRead() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "one\ntwo\nthree\n");
    tail.onRow =
        row -> {
          if (row.get("message").asText().equals("two")) {
            write("app.log", "four\nfive\n");
          }
        };

    tail.read();

    assertThat(tail.values()).containsExactly("one", "two", "three", "four", "five");
  }

  @Test
  void aReadStopsFollowingAfterFollowForAndTheNextGoesOnWhereItStopped() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "line1\n");
    int[] written = {1};
    tail.onRow =
        row -> {
          written[0]++;
          write("app.log", "line" + written[0] + "\n");
          tail.clock.advance(Duration.ofSeconds(1));
        };

    tail.read();

    // One line a round, a second a line: the rounds of the first ten seconds.
    long followed = FileTailSource.FOLLOW_FOR.toSeconds();
    assertThat(tail.values()).isEqualTo(names("line", 1, (int) followed + 1));
    tail.onRow = row -> {};
    tail.read();
    assertThat(tail.values()).isEqualTo(names("line", 1, written[0] + 1));
  }

  private void write(String name, String text) {
    try {
      append(name, text);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aPartialLastLineIsHeldUntilItsNewlineIsWritten() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "whole\npart");
    tail.read();
    assertThat(tail.values()).containsExactly("whole");
    assertThat(tail.mark().files())
        .singleElement()
        .extracting(FileTailMark.TailedFile::offset)
        .isEqualTo(6L);

    append("app.log", "ial\n");
    tail.read();

    assertThat(tail.values()).containsExactly("whole", "partial");
  }

  @Test
  void withoutAPartialLineTimeoutAPartialLineIsHeldHoweverLongTheFileIsQuiet() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    quietSince(append("app.log", "whole\npart"), tail);
    tail.read();
    tail.clock.advance(Duration.ofDays(7));

    tail.read();

    assertThat(tail.values()).containsExactly("whole");
  }

  @Test
  void aPartialLineIsReadAsItStandsOnceTheFileIsQuietForThePartialLineTimeout() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").partialLineTimeout(Duration.ofSeconds(5)));
    quietSince(append("app.log", "whole\npart"), tail);
    tail.read();
    tail.clock.advance(Duration.ofSeconds(4));
    tail.read();
    assertThat(tail.values()).containsExactly("whole");

    tail.clock.advance(Duration.ofSeconds(1));
    tail.read();

    assertThat(tail.values()).containsExactly("whole", "part");
    assertThat(tail.mark().files())
        .singleElement()
        .extracting(FileTailMark.TailedFile::offset)
        .isEqualTo(10L);
  }

  @Test
  void theRestOfALineFlushedByThePartialLineTimeoutLandsAsALineOfItsOwnOnce() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").partialLineTimeout(Duration.ofSeconds(5)));
    quietSince(append("app.log", "part"), tail);
    tail.clock.advance(Duration.ofSeconds(5));
    tail.read();

    append("app.log", "ial\nnext\n");
    tail.read();
    tail.read();

    assertThat(tail.values()).containsExactly("part", "ial", "next");
  }

  /** Sets the file's modification time to the harness clock's now: written last at that time. */
  private static void quietSince(Path file, TailHarness tail) throws IOException {
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(tail.clock.instant()));
  }

  @Test
  void eachRecordCarriesItsFilesPathAndItsLinesByteOffset() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    Path file = append("app.log", "ab\ncde\n");

    tail.read();

    assertThat(tail.field("_file_path")).containsOnly(file.toString());
    assertThat(tail.field("_file_offset")).containsExactly("0", "3");
  }

  @Test
  void aRestartResumesAfterTheLastCommittedLine() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", lines("a", 0, 3));
    tail.read();
    append("app.log", lines("a", 3, 5));

    tail.restart().read();

    assertThat(tail.values()).containsExactlyElementsOf(names("a", 0, 5));
  }

  @Test
  void aRestartFromAMarkInTheMiddleOfAFileReadsOnFromThatLine() throws IOException {
    int total = FileTailSource.MARK_EVERY_ROWS + 200;
    append("app.log", lines("a", 0, total));
    TailHarness first = tail(TailSpecs.in(dir, "*.log"));
    first.read();
    int carrying =
        first.rowMarks.indexOf(
            first.rowMarks.stream().filter(m -> m.isPresent()).findFirst().orElseThrow());
    assertThat(carrying).isEqualTo(FileTailSource.MARK_EVERY_ROWS - 1);

    // The driver had acknowledged only up to the row carrying that mark when the process died.
    TailHarness second = tail(TailSpecs.in(dir, "*.log"));
    second.checkpoint = first.rowMarks.get(carrying);
    second.read();

    assertThat(second.values()).containsExactlyElementsOf(names("a", carrying + 1, total));
  }

  @Test
  void aFileRotatedByRenameIsReadToItsEndBeforeTheNewFile() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    append("app.log", lines("old", 0, 2));
    tail.read();
    append("app.log", lines("old", 2, 4));
    Files.move(dir.resolve("app.log"), dir.resolve("app.log.1"));
    append("app.log", lines("new", 0, 2));

    tail.read();

    assertThat(tail.values()).containsExactly("old0", "old1", "old2", "old3", "new0", "new1");
    assertThat(tail.metrics.get(MetricNames.TAIL_ROTATIONS, Map.of("kind", "rename")))
        .isEqualTo(1.0);
  }

  @Test
  void aFileRotatedByRenameWhileStoppedIsFoundBesideItsOldPath() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    append("app.log", lines("old", 0, 2));
    tail.read();
    append("app.log", lines("old", 2, 4));
    Files.move(dir.resolve("app.log"), dir.resolve("app.log.1"));
    append("app.log", lines("new", 0, 2));

    tail.restart().read();

    assertThat(tail.values()).containsExactly("old0", "old1", "old2", "old3", "new0", "new1");
  }

  @Test
  void aRotatedFileIsFollowedUntilItHasBeenQuietForRotateWait() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log").rotateWait(Duration.ofSeconds(30)));
    append("app.log", "old0\n");
    tail.read();
    Files.move(dir.resolve("app.log"), dir.resolve("app.log.1"));
    tail.read();
    append("app.log.1", "late\n"); // the writer still had the old file open
    tail.clock.advance(Duration.ofSeconds(10));
    tail.read();
    assertThat(tail.mark().files()).hasSize(1);

    tail.clock.advance(Duration.ofSeconds(31));
    tail.read();

    assertThat(tail.values()).containsExactly("old0", "late");
    assertThat(tail.mark().files()).isEmpty();
  }

  @Test
  void aFileTruncatedInPlaceIsReadFromItsStart() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    Path file = append("app.log", lines("old", 0, 3));
    tail.read();
    // copytruncate: the rotator copies the file away, then truncates it in place
    Files.copy(file, dir.resolve("app.log.1"));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    append("app.log", "x\n");

    tail.read();

    assertThat(tail.values()).containsExactly("old0", "old1", "old2", "x");
    assertThat(tail.metrics.get(MetricNames.TAIL_ROTATIONS, Map.of("kind", "truncate")))
        .isEqualTo(1.0);
  }

  @Test
  void aFileTruncatedToNothingIsATruncateNotALossAndIsReadFromItsStartAsItGrows()
      throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    Path file = append("app.log", lines("old", 0, 2));
    tail.read();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    tail.read();
    append("app.log", "new\n");
    tail.read();

    assertThat(tail.values()).containsExactly("old0", "old1", "new");
    assertThat(tail.metrics.get(MetricNames.TAIL_ROTATIONS, Map.of("kind", "truncate")))
        .isEqualTo(1.0);
    assertThat(tail.metrics.get(MetricNames.TAIL_ROTATIONS, Map.of("kind", "deleted"))).isZero();
  }

  @Test
  void aCopyTheGlobsMatchIsNotReadAgainAfterACopytruncate() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log*"));
    Path file = append("app.log", lines("old", 0, 3));
    tail.read();
    append("app.log", "old3\n");
    Files.copy(file, dir.resolve("app.log.1"));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    append("app.log", "new\n");

    tail.read();
    tail.restart().read();

    assertThat(tail.values()).containsExactly("old0", "old1", "old2", "old3", "new");
  }

  @Test
  void linesWrittenJustBeforeACopytruncateAreReadFromTheCopy() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    Path file = append("app.log", lines("old", 0, 2));
    tail.read();
    append("app.log", lines("old", 2, 4));
    Files.copy(file, dir.resolve("app.log.1"));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    append("app.log", lines("new", 0, 30));

    tail.read();

    List<String> expected = new ArrayList<>(names("old", 0, 4));
    expected.addAll(names("new", 0, 30));
    assertThat(tail.values()).containsExactlyElementsOf(expected);
  }

  @Test
  void aFileDeletedWhileFollowedIsReadToItsEnd() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log"));
    Path file = append("app.log", "a\n");
    tail.read();
    append("app.log", "b\nc\n");
    Files.delete(file);

    tail.read();

    assertThat(tail.values()).containsExactly("a", "b", "c");
    assertThat(tail.metrics.get(MetricNames.TAIL_ROTATIONS, Map.of("kind", "deleted")))
        .isEqualTo(1.0);
  }

  @Test
  void aFileTheGlobsMatchUnderTwoPathsIsReadOnce() throws IOException {
    Path file = append("app-20260501.log", "once\n");
    Files.createSymbolicLink(dir.resolve("current.log"), file);
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));

    tail.read();
    tail.restart().read();

    assertThat(tail.values()).containsExactly("once");
  }

  /**
   * A file this process cannot open: one made unreadable, or, for root (who reads everything), a
   * link to a write-only kernel attribute that even root cannot open for reading.
   */
  private Path unreadable(String name) throws IOException {
    Path file = dir.resolve(name);
    if (!"root".equals(System.getProperty("user.name"))) {
      append(name, "secret\n");
      Files.setPosixFilePermissions(file, java.util.Set.of());
      return file;
    }
    Path writeOnly = Path.of("/sys/bus/pci/rescan");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.exists(writeOnly), "no file here that root cannot read");
    Files.createSymbolicLink(file, writeOnly);
    return file;
  }

  @Test
  void anUnreadableFileIsReportedOnceAndTheOthersAreReadOn() throws IOException {
    Path locked = unreadable("locked.log");
    append("open.log", "a\n");
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));

    tail.read();
    append("open.log", "b\n");
    tail.read();
    tail.read();

    assertThat(tail.values()).containsExactly("a", "b");
    assertThat(tail.skipped).containsExactly("unreadable " + locked);
  }

  @Test
  void anEmptyFileIsReadOnceItHoldsALine() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "");
    tail.read();
    assertThat(tail.rows).isEmpty();

    append("app.log", "first\n");
    tail.read();

    assertThat(tail.values()).containsExactly("first");
  }

  @Test
  void aFileShorterThanTheFingerprintIsReadAtOnceAndNotAgainAsItGrows() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("app.log", "a\n");
    tail.read();
    append("app.log", "b\n" + lines("long line number ", 0, 20));
    tail.read();
    tail.restart().read();

    assertThat(tail.values()).hasSize(22).startsWith("a", "b").doesNotHaveDuplicates();
    assertThat(tail.mark().files().get(0).fingerprint()).startsWith("checksum:0:256:");
  }

  @Test
  void manySmallAndEmptyFilesAreEachReadOnce() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    for (int i = 0; i < 50; i++) {
      append("f" + i + ".log", i % 5 == 0 ? "" : "line" + i + "\n");
    }
    tail.read();
    tail.restart().read();
    tail.read();

    assertThat(tail.values())
        .containsExactlyInAnyOrderElementsOf(
            IntStream.range(0, 50).filter(i -> i % 5 != 0).mapToObj(i -> "line" + i).toList());
  }

  @Test
  void twoFilesWithTheSameHeaderAreToldApartByTheHeaderSkip() throws IOException {
    String header = "# generated by the exporter, version 1.2.3 " + "-".repeat(300) + "\n";
    TailSpecs specs =
        TailSpecs.in(dir, "*.log")
            .fingerprint(new FingerprintSpec(FingerprintStrategy.CHECKSUM, 64, header.length()));
    TailHarness tail = tail(specs);
    append("a.log", header + "a0\n");
    append("b.log", header + "b0\n");
    tail.read();
    append("a.log", "a1\n");
    append("b.log", "b1\n");
    tail.restart().read();

    assertThat(tail.values())
        .filteredOn(value -> !value.startsWith("#"))
        .containsExactlyInAnyOrder("a0", "b0", "a1", "b1");
    assertThat(tail.mark().files())
        .extracting(FileTailMark.TailedFile::fingerprint)
        .doesNotHaveDuplicates();
  }

  @Test
  void twoFilesWithTheSameFirstBytesAndNoHeaderSkipAreBothReadOnce() throws IOException {
    String same = "x".repeat(300) + "\n";
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    append("a.log", same + "a0\n");
    append("b.log", same + "b0\n");
    tail.read();
    append("a.log", "a1\n");
    tail.restart().read();

    assertThat(tail.values())
        .filteredOn(value -> !value.startsWith("x"))
        .containsExactlyInAnyOrder("a0", "b0", "a1");
    assertThat(tail.values()).filteredOn(value -> value.startsWith("x")).hasSize(2);
  }

  @Test
  void aRotatedFileCompressedAfterItWasReadIsNotReadAgain() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log*"));
    Path file = append("app.log", lines("old", 0, 3));
    tail.read();
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(dir.resolve("app.log.1.gz")))) {
      out.write(Files.readAllBytes(file));
    }
    Files.delete(file);
    append("app.log", "new0\n");

    tail.read();
    tail.restart().read();

    assertThat(tail.values()).containsExactly("old0", "old1", "old2", "new0");
  }

  @Test
  void aGzipFileNobodyReadIsReadDecompressed() throws IOException {
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(dir.resolve("archive.log.gz")))) {
      out.write("z0\nz1\nlast without newline".getBytes(StandardCharsets.UTF_8));
    }
    TailHarness tail = tail(TailSpecs.in(dir, "*.log*"));

    tail.read();
    tail.read();

    assertThat(tail.values()).containsExactly("z0", "z1", "last without newline");
  }

  @Test
  void anExcludedFileIsNotFollowed() throws IOException {
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(dir.resolve("app.log.1.gz")))) {
      out.write("old\n".getBytes(StandardCharsets.UTF_8));
    }
    append("app.log", "new\n");
    TailHarness tail = tail(TailSpecs.in(dir, "app.log*").exclude("*.gz"));

    tail.read();

    assertThat(tail.values()).containsExactly("new");
  }

  @Test
  void readFromEndStartsAfterTheLastWholeLineOnTheFirstReadOnly() throws IOException {
    append("app.log", "before\nhalf");
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").readFrom(ReadFrom.END));
    tail.read();
    append("app.log", " done\nafter\n");
    append("other.log", "new file\n");
    tail.read();

    assertThat(tail.values()).containsExactlyInAnyOrder("half done", "after", "new file");
  }

  @Test
  void aLostCheckpointIsNoFirstStartSoReadFromEndStillReadsTheFilesFromTheirStart()
      throws IOException {
    append("app.log", "landed before the checkpoint was lost\nwritten since\n");
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").readFrom(ReadFrom.END));

    tail.readAfterLostCheckpoint();
    append("app.log", "after\n");
    tail.read();

    assertThat(tail.values())
        .containsExactly("landed before the checkpoint was lost", "written since", "after");
  }

  @Test
  void aReadInterruptedUnderItIsNoUnreadableFileAndTheNextReadGoesOn() throws IOException {
    append("app.log", "first\n");
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    tail.read();
    append("app.log", "second\n");

    // A cancelled tick interrupts the reading thread: its channel closes under the read.
    Thread.currentThread().interrupt();
    assertThatThrownBy(tail::read).hasRootCauseInstanceOf(ClosedByInterruptException.class);
    assertThat(Thread.interrupted()).as("the interrupt is left for the driver").isTrue();
    tail.read();

    assertThat(tail.skipped).as("what dfe_fetcher_files_skipped_total counts").isEmpty();
    assertThat(tail.values()).containsExactly("first", "second");
  }

  @Test
  void aFileOlderThanIgnoreOlderIsNotFollowed() throws IOException {
    Path old = append("old.log", "old\n");
    Files.setLastModifiedTime(
        old,
        java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2026-04-01T00:00:00Z")));
    append("new.log", "new\n");
    Files.setLastModifiedTime(
        dir.resolve("new.log"),
        java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2026-05-01T11:59:00Z")));
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").ignoreOlder(Duration.ofDays(1)));

    tail.read();

    assertThat(tail.values()).containsExactly("new");
  }

  @Test
  void aReusedInodeWithOtherContentIsANewFileUnderDeviceAndInode() throws IOException {
    TailSpecs specs =
        TailSpecs.in(dir, "app.log")
            .fingerprint(new FingerprintSpec(FingerprintStrategy.DEVICE_AND_INODE, 256, 0));
    TailHarness tail = tail(specs);
    Path file = append("app.log", "first line of the old file\n");
    tail.read();
    // Same inode, other content longer than the old offset: only the first bytes can tell.
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    append("app.log", "another file entirely, and longer than the old one\n");

    tail.restart().read();

    assertThat(tail.values())
        .containsExactly(
            "first line of the old file", "another file entirely, and longer than the old one");
  }

  @Test
  void aBusyFileDoesNotHoldBackAQuietOne() throws IOException {
    append("busy.log", lines("busy", 0, 3 * FileTailSource.LINES_PER_TURN));
    append("quiet.log", "quiet\n");
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));

    tail.read();

    assertThat(tail.values().indexOf("quiet")).isLessThanOrEqualTo(FileTailSource.LINES_PER_TURN);
    assertThat(tail.values()).hasSize(3 * FileTailSource.LINES_PER_TURN + 1);
  }

  @Test
  void moreFilesThanOpenHandlesAreAllReadAndReadOn() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").maxOpenFiles(2));
    for (int i = 0; i < 6; i++) {
      append("f" + i + ".log", "a" + i + "\n");
    }
    tail.read();
    for (int i = 0; i < 6; i++) {
      append("f" + i + ".log", "b" + i + "\n");
    }
    tail.read();

    assertThat(tail.values()).hasSize(12).doesNotHaveDuplicates();
  }

  @Test
  void twoThousandFilesAreEachReadOnceWithAtMostMaxOpenFilesHeldOpen() throws IOException {
    int files = 2000;
    for (int i = 0; i < files; i++) {
      append("f" + i + ".log", "first" + i + "\n");
    }
    TailHarness tail = tail(TailSpecs.in(dir, "*.log").maxOpenFiles(64));
    tail.read();
    assertThat(tail.openFiles()).isLessThanOrEqualTo(64);
    for (int i = 0; i < files; i += 7) {
      append("f" + i + ".log", "second" + i + "\n");
    }
    tail.read();
    tail.restart().read();

    assertThat(tail.openFiles()).isLessThanOrEqualTo(64);
    assertThat(tail.values()).hasSize(files + (files + 6) / 7).doesNotHaveDuplicates();
    assertThat(tail.mark().files()).hasSize(files);
  }

  @Test
  void theMetricsCountLinesBytesFilesAndLag() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    Path file = append("app.log", "ab\ncd\npartial");

    tail.read();

    assertThat(tail.metrics.get(MetricNames.TAIL_LINES, Map.of())).isEqualTo(2.0);
    assertThat(tail.metrics.get(MetricNames.TAIL_BYTES, Map.of())).isEqualTo(6.0);
    assertThat(tail.metrics.get(MetricNames.TAIL_FILES_WATCHED, Map.of())).isEqualTo(1.0);
    assertThat(tail.metrics.get(MetricNames.TAIL_LAG_BYTES, Map.of("file", file.toString())))
        .isEqualTo(7.0);
  }

  @Test
  void theLagInSecondsIsHowLongTheOldestUnreadByteHasBeenInTheFileAndZeroOnceReadToItsEnd()
      throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    Path file = append("app.log", "ab\npart");
    quietSince(file, tail);
    Map<String, String> labels = Map.of("file", file.toString());

    tail.read();
    assertThat(tail.metrics.get(MetricNames.TAIL_LAG_SECONDS, labels)).isEqualTo(0.0);

    tail.clock.advance(Duration.ofSeconds(90));
    tail.read();
    assertThat(tail.metrics.get(MetricNames.TAIL_LAG_SECONDS, labels)).isEqualTo(90.0);

    // The writer appends behind the unread part: its oldest byte is still from the first write,
    // where now less the modification time would say 30 s.
    quietSince(append("app.log", "ial"), tail);
    tail.clock.advance(Duration.ofSeconds(30));
    tail.read();
    assertThat(tail.metrics.get(MetricNames.TAIL_LAG_SECONDS, labels)).isEqualTo(120.0);

    quietSince(append("app.log", "\n"), tail);
    tail.clock.advance(Duration.ofMillis(1500));
    tail.read();
    assertThat(tail.values()).containsExactly("ab", "partial");
    assertThat(tail.metrics.values)
        .containsEntry(MetricNames.TAIL_LAG_SECONDS + labels, 0.0)
        .containsEntry(MetricNames.TAIL_LAG_BYTES + labels, 0.0);
  }

  @Test
  void unreadDataFoundAtTheFirstReadIsAsOldAsTheFilesLastWrite() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "*.log"));
    Path file = append("app.log", "whole\nwritten an hour ago, no newline yet");
    Files.setLastModifiedTime(
        file, FileTime.from(tail.clock.instant().minus(Duration.ofMinutes(60))));

    tail.read();

    assertThat(tail.metrics.get(MetricNames.TAIL_LAG_SECONDS, Map.of("file", file.toString())))
        .isEqualTo(3600.0);
  }

  @Test
  void movedFilesKeepTheirOffsetWhenTheGlobMatchesTheNewName() throws IOException {
    TailHarness tail = tail(TailSpecs.in(dir, "app.log*"));
    append("app.log", "a\n");
    tail.read();
    append("app.log", "b\n");
    Files.move(dir.resolve("app.log"), dir.resolve("app.log.1"), StandardCopyOption.ATOMIC_MOVE);
    append("app.log", "c\n");
    tail.read();
    tail.clock.advance(Duration.ofMinutes(5));
    tail.read();
    tail.restart().read();

    assertThat(tail.values()).containsExactly("a", "b", "c");
  }
}
