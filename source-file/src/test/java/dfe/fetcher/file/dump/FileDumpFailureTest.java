package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.CLOCK;
import static dfe.fetcher.file.dump.DataFiles.markOf;
import static dfe.fetcher.file.dump.RecordingSink.begin;
import static dfe.fetcher.file.dump.RecordingSink.end;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.file.dump.RecordingSink.Record;
import dfe.fetcher.file.dump.RecordingSink.Skipped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input fails the read naming the file (and line); the files before it stay ended, the bad one
 * is never ended. What the sink throws comes out unchanged.
 */
class FileDumpFailureTest {

  @TempDir Path temp;
  DataFiles data;
  Path good;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
    good = data.write("data/a.ndjson", "{\"ok\":1}\n", 1);
  }

  private Record goodRow() {
    return new Record("{\"ok\":1}", good + ":1", CLOCK.millis());
  }

  @Test
  void aMalformedLineFailsAtItsLineAfterTheEarlierFileWasEnded() {
    Path bad = data.write("data/b.ndjson", "{\"n\":1}\n{\"n\":2}\n{\"n\":\n{\"n\":4}\n", 2);
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(bad + ":3:6: not valid JSON: ");
    assertThat(sink.events)
        .containsExactly(
            begin(),
            goodRow(),
            end(markOf(good)),
            begin(),
            new Record("{\"n\":1}", bad + ":1", CLOCK.millis()),
            new Record("{\"n\":2}", bad + ":2", CLOCK.millis()));
  }

  @Test
  void aFileBadOnItsFirstLineIsNeverBegun() {
    Path bad = data.write("data/b.ndjson", "not json\n", 2);
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(bad + ":1:1: not valid JSON: ");
    assertThat(sink.events).containsExactly(begin(), goodRow(), end(markOf(good)));
  }

  @Test
  void aTruncatedGzipFailsAfterTheEarlierFileWasEnded() {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      lines.append("{\"n\":").append(i).append("}\n");
    }
    byte[] whole = DataFiles.gzip(lines.toString().getBytes(StandardCharsets.UTF_8));
    Path bad =
        data.write(
            "data/b.ndjson.gz",
            Arrays.copyOf(whole, whole.length / 2),
            DataFiles.T0.plusSeconds(2));
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageMatching(
            "\\Q" + bad + "\\E:\\d+: the gzip data ends early \\(truncated file\\): .*");
    assertThat(sink.endMarks()).containsExactly(markOf(good));
    assertThat(sink.records()).hasSizeGreaterThan(1).hasSizeLessThan(10_001);
  }

  @Test
  void anUnknownExtensionUnderAutoFailsAfterTheEarlierFileWasEnded() {
    Path bad = data.write("data/b.txt", "{}\n", 2);
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(bad + ": cannot tell the decoder from the file name's extension");
    assertThat(sink.events).containsExactly(begin(), goodRow(), end(markOf(good)));
  }

  @Test
  void aFileRemovedBetweenListingAndOpeningIsReportedSkippedAndTheReadGoesOn() throws Exception {
    Path gone = data.write("data/b.ndjson", "{}\n", 2);
    Path later = data.write("data/c.ndjson", "{\"later\":1}\n", 3);
    RecordingSink sink =
        new RecordingSink() {
          @Override
          public void endPart(Optional<Mark> mark) throws InterruptedException {
            super.endPart(mark);
            try {
              Files.deleteIfExists(gone);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };

    data.source(Decoder.AUTO, "data/*").read(Optional.empty(), sink, new Cancellation());

    assertThat(sink.events)
        .startsWith(begin(), goodRow(), end(markOf(good)), new Skipped(markOf(gone), "vanished"));
    assertThat(sink.endMarks()).containsExactly(markOf(good), markOf(later));
  }

  @Test
  void anExceptionTheSinkThrowsComesOutUnchanged() {
    IllegalStateException transportFailed = new IllegalStateException("transport failed");
    RecordingSink sink =
        new RecordingSink() {
          @Override
          public void row(Row row) {
            throw transportFailed;
          }
        };

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isSameAs(transportFailed);
    assertThat(sink.events).containsExactly(begin());
  }

  @Test
  void anInterruptionFromTheSinkComesOutUnchanged() {
    InterruptedException stopping = new InterruptedException("stopping");
    RecordingSink sink =
        new RecordingSink() {
          @Override
          public void beginPart(OptionalLong total) throws InterruptedException {
            throw stopping;
          }
        };

    assertThatThrownBy(
            () ->
                data.source(Decoder.AUTO, "data/*")
                    .read(Optional.empty(), sink, new Cancellation()))
        .isSameAs(stopping);
    assertThat(sink.events).isEmpty();
  }
}
