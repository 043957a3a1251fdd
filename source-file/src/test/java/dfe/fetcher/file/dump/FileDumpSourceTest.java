package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.CLOCK;
import static dfe.fetcher.file.dump.DataFiles.markOf;
import static dfe.fetcher.file.dump.RecordingSink.begin;
import static dfe.fetcher.file.dump.RecordingSink.end;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.file.dump.RecordingSink.Record;
import dfe.fetcher.row.Cancellation;
import dfe.fetcher.row.FileMark;
import dfe.fetcher.row.Mark;
import dfe.fetcher.row.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
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
  void filesAreReadOldestChangeTimeFirstWhateverTheirNames() throws Exception {
    Path newest = data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 30);
    Path oldest = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 10);
    Path middle = data.write("data/c.ndjson", "{\"f\":\"c\"}\n", 20);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.endMarks()).containsExactly(markOf(oldest), markOf(middle), markOf(newest));
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
    Path a = data.write("data/a.ndjson", "{}\n", 5);
    Path c = data.write("data/c.ndjson", "{}\n", 5);

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.endMarks()).containsExactly(markOf(a), markOf(b), markOf(c));
  }

  @Test
  void changeTimesAreComparedAtFullPrecision() throws Exception {
    Instant second = DataFiles.T0;
    Path later = data.write("data/a.ndjson", "{}\n".getBytes(), second.plusMillis(1));
    Path earlier = data.write("data/b.ndjson", "{}\n".getBytes(), second.plusNanos(1000));

    RecordingSink sink = data.readAll("data/*.ndjson");

    assertThat(sink.endMarks()).containsExactly(markOf(earlier), markOf(later));
    assertThat(((FileMark) sink.endMarks().get(0)).changedAt()).isEqualTo(second.plusNanos(1000));
  }

  @Test
  void onlyFilesAfterTheCheckpointAreRead() throws Exception {
    Path old = data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 1);
    Path fresh = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 2);

    RecordingSink sink =
        DataFiles.read(data.source(Decoder.AUTO, "data/*.ndjson"), Optional.of(markOf(old)));

    assertThat(sink.endMarks()).containsExactly(markOf(fresh));
  }

  @Test
  void aFileWithTheCheckpointsChangeTimeAndAGreaterPathIsRead() throws Exception {
    Path committed = data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 7);
    Path sameInstant = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 7);

    RecordingSink sink =
        DataFiles.read(data.source(Decoder.AUTO, "data/*.ndjson"), Optional.of(markOf(committed)));

    assertThat(sink.endMarks()).containsExactly(markOf(sameInstant));
  }

  @Test
  void aFileWithTheCheckpointsChangeTimeAndASmallerPathIsNotRead() throws Exception {
    data.write("data/a.ndjson", "{\"f\":\"a\"}\n", 7);
    Path committed = data.write("data/b.ndjson", "{\"f\":\"b\"}\n", 7);

    RecordingSink sink =
        DataFiles.read(data.source(Decoder.AUTO, "data/*.ndjson"), Optional.of(markOf(committed)));

    assertThat(sink.events).isEmpty();
  }

  @Test
  void aFileRewrittenInPlaceIsReadAgain() throws Exception {
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    Path file = data.write("data/a.ndjson", "{\"v\":1}\n", 1);
    Mark checkpoint = DataFiles.read(source, Optional.empty()).endMarks().get(0);

    data.write("data/a.ndjson", "{\"v\":2}\n", 2);
    RecordingSink sink = DataFiles.read(source, Optional.of(checkpoint));

    assertThat(sink.records()).containsExactly("{\"v\":2}");
    assertThat(sink.endMarks()).containsExactly(markOf(file));
  }

  @Test
  void aReadWithNothingAfterTheCheckpointCallsNothingOnTheSink() throws Exception {
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    data.write("data/a.ndjson", "{}\n", 1);
    data.write("data/b.ndjson", "{}\n", 2);
    List<Mark> marks = DataFiles.read(source, Optional.empty()).endMarks();

    RecordingSink sink = DataFiles.read(source, Optional.of(marks.get(marks.size() - 1)));

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
    Path csv = data.write("csv/a.csv", "id\n1\n", 2);
    Path ndjson = data.write("ndjson/a.ndjson", "{}\n", 1);

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

    assertThat(((FileMark) sink.endMarks().get(0)).path())
        .isEqualTo(file.toAbsolutePath().normalize().toString())
        .doesNotContain("..");
  }

  @Test
  void theMarkKeepsTheChangeTimeSeenWhenTheFileWasListed() throws Exception {
    Path file = data.write("data/a.ndjson", "{}\n", 1);
    FileMark listed = markOf(file);
    FileDumpSource source = data.source(Decoder.AUTO, "data/*.ndjson");
    RecordingSink touchesTheFileWhileItIsRead =
        new RecordingSink() {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            try {
              Files.setLastModifiedTime(file, FileTime.from(DataFiles.T0.plusSeconds(99)));
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        };

    source.read(Optional.empty(), touchesTheFileWhileItIsRead, new Cancellation());

    // The later write is read again on the next read, because the mark did not move past it.
    assertThat(touchesTheFileWhileItIsRead.endMarks()).containsExactly(listed);
  }
}
