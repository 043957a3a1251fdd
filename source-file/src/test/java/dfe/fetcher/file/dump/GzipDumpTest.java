package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip is recognised by its magic bytes and read across all its members. */
class GzipDumpTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void aGzippedFileIsDecompressed() throws Exception {
    data.writeGzip("data/a.ndjson.gz", 1, "{\"a\":1}\n{\"a\":2}\n");

    assertThat(data.readAll("data/*.ndjson.gz").records())
        .containsExactly("{\"a\":1}", "{\"a\":2}");
  }

  @Test
  void everyMemberOfAMultiMemberGzipIsRead() throws Exception {
    Path file =
        data.writeGzip(
            "data/a.ndjson.gz", 1, "{\"m\":1}\n", "{\"m\":2}\n{\"m\":3}\n", "{\"m\":4}\n");

    RecordingSink sink = data.readAll("data/*.ndjson.gz");

    assertThat(sink.records()).containsExactly("{\"m\":1}", "{\"m\":2}", "{\"m\":3}", "{\"m\":4}");
    assertThat(sink.origins()).last().isEqualTo(file + ":4");
  }

  @Test
  void theInputAnnouncedAndReadIsTheFilesOwnBytesGzippedOrNot() throws Exception {
    Path gzipped = data.writeGzip("data/a.ndjson.gz", 1, "{\"a\":1}\n{\"a\":2}\n");
    Path plain = data.write("data/b.ndjson", "{\"b\":1}\n", 2);
    long sizes = java.nio.file.Files.size(gzipped) + java.nio.file.Files.size(plain);

    RecordingSink sink = data.readAll("data/*");

    assertThat(sink.records()).hasSize(3);
    assertThat(sink.inputAhead).isEqualTo(sizes);
    assertThat(sink.inputRead).isEqualTo(sizes);
  }

  @Test
  void gzipIsRecognisedByContentNotByName() throws Exception {
    data.writeGzip("data/a.ndjson", 1, "{\"a\":1}\n");

    assertThat(data.readAll("data/*.ndjson").records()).containsExactly("{\"a\":1}");
  }

  @Test
  void aFileNamedGzThatIsNotGzipIsReadAsItIs() throws Exception {
    data.write("data/a.ndjson.gz", "{\"a\":1}\n", 1);

    assertThat(data.readAll("data/*.gz").records()).containsExactly("{\"a\":1}");
  }

  @Test
  void eachDecoderReadsGzip() throws Exception {
    data.writeGzip("data/a.csv.gz", 1, "id\n7\n");
    data.writeGzip("data/b.json.gz", 2, "[{\"id\":8}]");

    assertThat(data.readAll("data/*.gz").records()).containsExactly("{\"id\":\"7\"}", "{\"id\":8}");
  }

  @Test
  void aTruncatedGzipIsRefusedNamingTheFile() {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      lines.append("{\"n\":").append(i).append("}\n");
    }
    byte[] whole = DataFiles.gzip(lines.toString().getBytes(StandardCharsets.UTF_8));
    Path file =
        data.write("data/a.ndjson.gz", Arrays.copyOf(whole, whole.length / 2), DataFiles.T0);

    assertThatThrownBy(() -> data.readAll("data/*.gz"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining(": the gzip data ends early (truncated file)");
  }

  @Test
  void aGzipCutInsideItsHeaderIsRefused() {
    byte[] whole = DataFiles.gzip("{}\n".getBytes(StandardCharsets.UTF_8));
    Path file = data.write("data/a.ndjson.gz", Arrays.copyOf(whole, 5), DataFiles.T0);

    assertThatThrownBy(() -> data.readAll("data/*.gz"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ": the gzip data ends early (truncated file)");
  }

  @Test
  void aGzipWhoseTrailerLiesIsRefusedNamingTheFile() {
    byte[] body = DataFiles.gzip("{\"n\":1}\n{\"n\":2}\n".getBytes(StandardCharsets.UTF_8));
    body[body.length - 1] ^= 0x01; // ISIZE, the uncompressed length, no longer matches
    Path file = data.write("data/a.ndjson.gz", body, DataFiles.T0);

    assertThatThrownBy(() -> data.readAll("data/*.gz"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining(": corrupt gzip data: Corrupt GZIP trailer");
  }

  @Test
  void aGzipWhoseChecksumLiesIsRefused() {
    byte[] body = DataFiles.gzip("{\"n\":1}\n{\"n\":2}\n".getBytes(StandardCharsets.UTF_8));
    body[body.length - 8] ^= 0x01; // the CRC-32 of the uncompressed bytes
    Path file = data.write("data/a.ndjson.gz", body, DataFiles.T0);

    assertThatThrownBy(() -> data.readAll("data/*.gz"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining(": corrupt gzip data: Corrupt GZIP trailer");
  }
}
