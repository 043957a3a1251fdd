package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A large gzipped file streams through: every row arrives and none is kept by the source. */
class LargeFileDumpTest {

  private static final int ROWS = 300_000;

  @TempDir Path temp;

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aLargeGzippedNdjsonFileIsStreamedRowByRow() throws Exception {
    Path file = temp.resolve("big.ndjson.gz");
    try (OutputStream out =
        new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(file)), 1 << 16)) {
      for (int i = 0; i < ROWS; i++) {
        out.write(
            ("{\"id\":" + i + ",\"name\":\"host-" + i + "\",\"alive\":true}\n")
                .getBytes(StandardCharsets.UTF_8));
      }
    }
    CountingSink sink = new CountingSink();

    new FileDumpSource(new FileDumpSpec(List.of("*.gz"), temp, Decoder.AUTO), DataFiles.CLOCK)
        .read(Optional.empty(), sink, new Cancellation());

    assertThat(sink.rows).isEqualTo(ROWS);
    assertThat(sink.lastOrigin).isEqualTo(file + ":" + ROWS);
    assertThat(sink.parts).isEqualTo(1);
    assertThat(sink.ended).isEqualTo(DataFiles.markOf(file));
  }

  /** Counts without keeping rows, so the test itself stays small whatever the file's size. */
  private static final class CountingSink implements RowSink {
    long rows;
    int parts;
    String lastOrigin;
    String ended;

    @Override
    public void beginPart(OptionalLong total) {
      parts++;
    }

    @Override
    public void row(Row row) {
      rows++;
      lastOrigin = row.origin();
    }

    @Override
    public void endPart(Optional<Mark> mark) {
      ended = ((FileMark) mark.orElseThrow()).path();
    }

    @Override
    public void abortPart(String reason) {
      throw new AssertionError("a file dump does not abort on purpose");
    }

    @Override
    public void advance(Mark mark) {
      throw new AssertionError("a dump does not advance");
    }
  }
}
