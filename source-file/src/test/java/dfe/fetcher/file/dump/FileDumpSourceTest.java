package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.CLOCK;
import static dfe.fetcher.file.dump.DataFiles.markOf;
import static dfe.fetcher.file.dump.RecordingSink.begin;
import static dfe.fetcher.file.dump.RecordingSink.end;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.file.dump.RecordingSink.Record;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files a dump unit reads, in which order, and how each becomes one part. */
class FileDumpSourceTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void eachFileIsOnePartWhoseRowsComeBetweenBeginAndEndWithTheFilesMark() throws Exception {
    Path file = data.write("data/a.ndjson", "{\"n\":1}\n{\"n\":2}\n", 0);

    RecordingSink sink = data.readAll("data/*.ndjson");

    long fetchedAt = CLOCK.millis();
    assertThat(sink.events)
        .containsExactly(
            begin(),
            new Record("{\"n\":1}", file + ":1", fetchedAt),
            new Record("{\"n\":2}", file + ":2", fetchedAt),
            end(markOf(file)));
  }

  @Test
  void filesAreReadInChangeTimeOrderWhateverTheirNamesAndModificationTimes() throws Exception {
    Path first = data.write("data/c.ndjson", "{\"f\":\"c\"}\n", 30);
    Path second = data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 10);
    Path third = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 20);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.endMarks()).containsExactly(markOf(first), markOf(second), markOf(third));
  }

  @Test
  void eachFileIsEndedBeforeTheNextBegins() throws Exception {
    Path first = data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 1);
    Path second = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 2);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.events)
        .containsExactly(
            begin(),
            new Record("{\"f\":\"a\"}", first + ":1", CLOCK.millis()),
            end(markOf(first)),
            begin(),
            new Record("{\"f\":\"b\"}", second + ":1", CLOCK.millis()),
            end(markOf(second)));
  }

  @Test
  void filesWithTheSameChangeTimeAreReadInPathOrder() throws Exception {
    Path b = data.write("data/b.ndjson", "{}\n", 5);
    // A hard link shares the inode, so both paths have one change time.
    Path a = Files.createLink(temp.resolve("data/a.ndjson"), b);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(DataFiles.changeTimeOf(a)).isEqualTo(DataFiles.changeTimeOf(b));
    assertThat(sink.endMarks()).containsExactly(markOf(a), markOf(b));
  }

  @Test
  void filesCommittedBeforeAreNotReadAgain() throws Exception {
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 1);
    Optional<Mark> checkpoint = DataFiles.read(source, Optional.empty()).checkpoint();
    Path fresh = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 2);

    RecordingSink sink = DataFiles.read(source, checkpoint);

    assertThat(sink.endMarks()).containsExactly(markOf(fresh));
  }

  @Test
  void aFileRewrittenInPlaceIsReadAgain() throws Exception {
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    Path file = data.write("data/a.ndjson", "{\"v\":1}\n", 1);
    Optional<Mark> checkpoint = DataFiles.read(source, Optional.empty()).checkpoint();

    data.write("data/a.ndjson", "{\"v\":2}\n", 2);
    RecordingSink sink = DataFiles.read(source, checkpoint);

    assertThat(sink.records()).containsExactly("{\"v\":2}");
    assertThat(sink.endMarks()).containsExactly(markOf(file));
  }

  @Test
  void aReadWithNothingAfterTheCheckpointCallsNothingOnTheSink() throws Exception {
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    data.write("data/a.ndjson", "{}\n", 1);
    data.write("data/b.ndjson", "{}\n", 2);
    Optional<Mark> checkpoint = DataFiles.read(source, Optional.empty()).checkpoint();

    RecordingSink sink = DataFiles.read(source, checkpoint);

    assertThat(sink.events).isEmpty();
  }

  @Test
  void aGlobMatchingNoFileCallsNothingOnTheSink() throws Exception {
    data.write("data/a.csv", "id\n1\n", 1);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.events).isEmpty();
  }

  @Test
  void aMissingDirectoryHoldsNoFiles() throws Exception {
    RecordingSink sink = data.readAll("not-yet-created/**/*.ndjson");

    assertThat(sink.events).isEmpty();
  }

  @Test
  void anEmptyFileIsAPartWithoutRows() throws Exception {
    Path empty = data.write("data/empty.ndjson", "", 1);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.events).containsExactly(begin(), end(markOf(empty)));
  }

  @Test
  void aFileOfBlankLinesIsAPartWithoutRows() throws Exception {
    Path blank = data.write("data/blank.ndjson", "\n  \r\n\n", 1);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.events).containsExactly(begin(), end(markOf(blank)));
  }

  @Test
  void aFileMatchedByTwoGlobsIsReadOnce() throws Exception {
    Path file = data.write("data/a.ndjson", "{}\n", 1);

    RecordingSink sink = data.readAll("data/*.ndjson", "data/a.*");

    assertThat(sink.endMarks()).containsExactly(markOf(file));
  }

  @Test
  void filesOfSeveralGlobsAreReadInOneOrder() throws Exception {
    Path ndjson = data.write("ndjson/a.ndjson", "{}\n", 2);
    Path csv = data.write("csv/a.csv", "id\n1\n", 1);

    RecordingSink sink = data.readAll("csv/*.csv", "ndjson/*.ndjson");

    assertThat(sink.endMarks()).containsExactly(markOf(ndjson), markOf(csv));
  }

  @Test
  void theMarkHoldsTheNormalizedAbsolutePath() throws Exception {
    Path file = data.write("data/a.ndjson", "{}\n", 1);
    Path detour = temp.resolve("data/../data/./");

    RecordingSink sink =
        DataFiles.read(
            new FileDumpSource(
                new FileDumpSpec(List.of("./a.ndjson"), detour, Decoder.AUTO), CLOCK),
            Optional.empty());

    assertThat(sink.endMarks().get(0))
        .isEqualTo(file.toAbsolutePath().normalize().toString())
        .doesNotContain("..");
  }

  @Test
  void aFileTouchedWhileItIsReadGetsNoEndAndIsReadAgainNextTime() throws Exception {
    Path file = data.write("data/a.ndjson", "{}\n", 1);
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    RecordingSink touchesTheFileWhileItIsRead =
        new RecordingSink() {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            try {
              Files.setLastModifiedTime(file, FileTime.from(DataFiles.T0.plusSeconds(99)));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };

    source.read(Optional.empty(), touchesTheFileWhileItIsRead, new Cancellation());
    RecordingSink next = DataFiles.read(source, touchesTheFileWhileItIsRead.checkpoint());

    assertThat(touchesTheFileWhileItIsRead.endMarks()).isEmpty();
    assertThat(touchesTheFileWhileItIsRead.events)
        .last()
        .asString()
        .contains(file + ": changed while it was read (modified ");
    assertThat(next.endMarks()).containsExactly(markOf(file));
  }
}
