package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.markOf;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.file.dump.RecordingSink.SkipPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8: no file is left unread because of its modification time, a tie, a clock step, a bad
 * neighbour or a link, and what is passed over is reported. Change times come from the kernel, so
 * these units judge them by the system clock.
 */
class FileDumpNeverSkipsTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  private FileDumpSource source(
      Duration settle, FileDumpSpec.BadFilePolicy onBadFile, boolean followSymlinks, Clock clock) {
    return new FileDumpSource(
        new FileDumpSpec(
            List.of("data/**/*.ndjson"), temp, Decoder.AUTO, settle, onBadFile, followSymlinks),
        clock);
  }

  private FileDumpSource source() {
    return source(Duration.ZERO, FileDumpSpec.BadFilePolicy.STOP, false, Clock.systemUTC());
  }

  private static RecordingSink read(FileDumpSource source, Optional<Mark> checkpoint)
      throws Exception {
    return DataFiles.read(source, checkpoint);
  }

  @Test
  void aFileCopiedInWithAnOlderModificationTimeIsRead() throws Exception {
    data.write("data/new.ndjson", "{}\n", 100);
    Optional<Mark> checkpoint = read(source(), Optional.empty()).checkpoint();

    Path old = data.write("data/old.ndjson", "{\"old\":1}\n", 1); // as cp -p would leave it

    assertThat(read(source(), checkpoint).endMarks()).containsExactly(markOf(old));
  }

  @Test
  void aFileArrivingLaterWithTheSameModificationTimeAndAnEarlierPathIsRead() throws Exception {
    data.write("data/b.ndjson", "{}\n", 7);
    Optional<Mark> checkpoint = read(source(), Optional.empty()).checkpoint();

    Path a = data.write("data/a.ndjson", "{}\n", 7);

    assertThat(read(source(), checkpoint).endMarks()).containsExactly(markOf(a));
  }

  @Test
  void aFileRewrittenInPlaceKeepingItsSizeAndModificationTimeIsReadAgain() throws Exception {
    Path file = data.write("data/a.ndjson", "{\"v\":1}\n", 7);
    Optional<Mark> checkpoint = read(source(), Optional.empty()).checkpoint();

    data.write("data/a.ndjson", "{\"v\":2}\n", 7); // as touch -d or rsync -t would leave it
    RecordingSink again = read(source(), checkpoint);

    assertThat(again.records()).containsExactly("{\"v\":2}");
    assertThat(again.endMarks()).containsExactly(markOf(file));
  }

  @Test
  void aFileRenamedInIsReadAlthoughItsModificationTimeIsOld() throws Exception {
    data.write("data/a.ndjson", "{}\n", 100);
    Optional<Mark> checkpoint = read(source(), Optional.empty()).checkpoint();
    Path staged = data.write("staging/b.ndjson", "{\"b\":1}\n", 1);

    Path moved = Files.move(staged, temp.resolve("data/b.ndjson"));

    assertThat(read(source(), checkpoint).endMarks()).containsExactly(markOf(moved));
  }

  @Test
  void anUnchangedCommittedFileIsNotReadAgain() throws Exception {
    data.write("data/a.ndjson", "{}\n", 7);
    Optional<Mark> checkpoint = read(source(), Optional.empty()).checkpoint();

    assertThat(read(source(), checkpoint).events).isEmpty();
  }

  @Test
  void aWatermarkAfterTheClockDoesNotHideANewFile() throws Exception {
    // The clock stepped back a day after the watermark was committed.
    FileMark fromTheFuture = new FileMark(Instant.now().plus(Duration.ofDays(1)), "x");
    Path file = data.write("data/a.ndjson", "{}\n", 1);

    assertThat(read(source(), Optional.of(fromTheFuture)).endMarks()).containsExactly(markOf(file));
  }

  @Test
  void aFileThatChangedWithinSettleSecsIsReportedAndTakenOnceSettled() throws Exception {
    Path file = data.write("data/a.ndjson", "{}\n", 1);
    Clock now = Clock.systemUTC();
    Clock anHourLater = Clock.offset(now, Duration.ofHours(1));

    RecordingSink early =
        read(
            source(Duration.ofMinutes(5), FileDumpSpec.BadFilePolicy.STOP, false, now),
            Optional.empty());
    RecordingSink settled =
        read(
            source(Duration.ofMinutes(5), FileDumpSpec.BadFilePolicy.STOP, false, anHourLater),
            early.checkpoint());

    assertThat(early.skips()).containsExactly(markOf(file) + " not_settled");
    assertThat(early.endMarks()).isEmpty();
    assertThat(settled.endMarks()).containsExactly(markOf(file));
  }

  @Test
  void withOnBadFileSkipABadFileIsDeadLetteredAndLaterFilesGoOn() throws Exception {
    Path bad = data.write("data/a.ndjson", "{\"ok\":1}\n{oops\n", 1);
    Path good = data.write("data/b.ndjson", "{}\n", 2);
    FileDumpSource skipping =
        source(Duration.ZERO, FileDumpSpec.BadFilePolicy.SKIP, false, Clock.systemUTC());

    RecordingSink sink = read(skipping, Optional.empty());

    assertThat(sink.events)
        .filteredOn(SkipPart.class::isInstance)
        .singleElement()
        .satisfies(
            skip -> {
              assertThat(((SkipPart) skip).place()).isEqualTo(markOf(bad));
              assertThat(((SkipPart) skip).reason())
                  .startsWith(markOf(bad) + ":2:2: not valid JSON");
            });
    assertThat(sink.endMarks()).containsExactly(markOf(good));
    assertThat(read(skipping, sink.checkpoint()).events).isEmpty();
  }

  @Test
  void aSkippedBadFileThatIsLastIsCommittedByAnAdvanceAndReadOnceFixed() throws Exception {
    Path bad = data.write("data/a.ndjson", "{oops\n", 1);
    FileDumpSource skipping =
        source(Duration.ZERO, FileDumpSpec.BadFilePolicy.SKIP, false, Clock.systemUTC());

    RecordingSink first = read(skipping, Optional.empty());
    data.write("data/a.ndjson", "{\"fixed\":1}\n", 1);
    RecordingSink fixed = read(skipping, first.checkpoint());

    assertThat(first.events).last().isInstanceOf(RecordingSink.Advance.class);
    assertThat(fixed.records()).containsExactly("{\"fixed\":1}");
    assertThat(fixed.endMarks()).containsExactly(markOf(bad));
  }

  @Test
  void aLinkToAFileOutsideTheBaseDirectoryIsReportedAndNotRead() throws Exception {
    Path secret = data.write("elsewhere/secret.ndjson", "{\"secret\":1}\n", 1);
    Files.createDirectories(temp.resolve("data"));
    Path link = Files.createSymbolicLink(temp.resolve("data/secret.ndjson"), secret);

    RecordingSink sink = read(source(), Optional.empty());

    assertThat(sink.records()).isEmpty();
    assertThat(sink.skips()).containsExactly(markOf(link) + " outside_base");
  }

  @Test
  void aLinkToADirectoryOutsideTheBaseDirectoryIsReportedAndNotWalked() throws Exception {
    data.write("elsewhere/secret.ndjson", "{\"secret\":1}\n", 1);
    Files.createDirectories(temp.resolve("data"));
    Path link = Files.createSymbolicLink(temp.resolve("data/out"), temp.resolve("elsewhere"));

    RecordingSink sink = read(source(), Optional.empty());

    assertThat(sink.records()).isEmpty();
    assertThat(sink.skips()).containsExactly(markOf(link) + " outside_base");
  }

  @Test
  void withFollowSymlinksALinkOutsideTheBaseDirectoryIsRead() throws Exception {
    Path secret = data.write("elsewhere/secret.ndjson", "{\"secret\":1}\n", 1);
    Files.createDirectories(temp.resolve("data"));
    Path link = Files.createSymbolicLink(temp.resolve("data/secret.ndjson"), secret);

    RecordingSink sink =
        read(
            source(Duration.ZERO, FileDumpSpec.BadFilePolicy.STOP, true, Clock.systemUTC()),
            Optional.empty());

    assertThat(sink.endMarks()).containsExactly(markOf(link));
  }

  @Test
  void aLinkWithinTheBaseDirectoryIsRead() throws Exception {
    Path real = data.write("data/sub/real.ndjson", "{}\n", 1);
    Path link = Files.createSymbolicLink(temp.resolve("data/alias.ndjson"), real);

    assertThat(read(source(), Optional.empty()).endMarks())
        .containsExactlyInAnyOrder(markOf(link), markOf(real));
  }

  @Test
  void aDanglingLinkIsReportedAsNotARegularFile() throws Exception {
    Files.createDirectories(temp.resolve("data"));
    Path link = Files.createSymbolicLink(temp.resolve("data/gone.ndjson"), temp.resolve("nowhere"));

    RecordingSink sink = read(source(), Optional.empty());

    assertThat(sink.skips()).containsExactly(markOf(link) + " not_regular");
  }

  @Test
  void aFileAppendedToWhileItIsReadGetsNoEndAndIsReadWholeNextTime() throws Exception {
    Path file = data.write("data/a.ndjson", "{\"n\":1}\n", 1);
    RecordingSink appending =
        new RecordingSink() {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            if (records().size() > 1) {
              return; // the writer appends once
            }
            try {
              Files.writeString(
                  file, "{\"n\":2}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
              Files.setLastModifiedTime(file, FileTime.from(DataFiles.T0.plusSeconds(1)));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };

    source().read(Optional.empty(), appending, new Cancellation());
    RecordingSink next = read(source(), appending.checkpoint());

    assertThat(appending.endMarks()).isEmpty();
    assertThat(appending.events).last().asString().contains("size 8 -> 16");
    assertThat(next.records()).containsExactly("{\"n\":1}", "{\"n\":2}");
  }
}
