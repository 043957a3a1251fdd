package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.SourceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NDJSON files: one JSON value per non-blank line, landed as the line's own bytes. */
class NdjsonDumpTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void aRecordIsTheLinesBytesAsWritten() throws Exception {
    String line = "{ \"b\" : 1.50e+3,\"a\":\"\\u00e9\\n\" , \"n\": [ 1 ,2 ] }";
    data.write("data/a.ndjson", line + "\n", 1);

    assertThat(data.readAll("data/*.ndjson").records()).containsExactly(line);
  }

  @Test
  void trailingCarriageReturnAndWhitespaceAreTrimmed() throws Exception {
    data.write("data/a.ndjson", "{\"a\":1}  \t\r\n{\"a\":2}\r\n", 1);

    assertThat(data.readAll("data/*.ndjson").records()).containsExactly("{\"a\":1}", "{\"a\":2}");
  }

  @Test
  void blankLinesAreSkippedButCountedInLineNumbers() throws Exception {
    Path file = data.write("data/a.ndjson", "\n{\"a\":1}\n   \n\n{\"a\":2}\n", 1);

    assertThat(data.readAll("data/*.ndjson").origins()).containsExactly(file + ":2", file + ":5");
  }

  @Test
  void theLastLineNeedsNoNewline() throws Exception {
    data.write("data/a.ndjson", "{\"a\":1}\n{\"a\":2}", 1);

    assertThat(data.readAll("data/*.ndjson").records()).containsExactly("{\"a\":1}", "{\"a\":2}");
  }

  @Test
  void anyJsonValueIsARecord() throws Exception {
    data.write("data/a.ndjson", "42\n\"text\"\n[1,2]\nnull\n", 1);

    assertThat(data.readAll("data/*.ndjson").records())
        .containsExactly("42", "\"text\"", "[1,2]", "null");
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheFirstRecord() throws Exception {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    byte[] line = "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[bom.length + line.length];
    System.arraycopy(bom, 0, content, 0, bom.length);
    System.arraycopy(line, 0, content, bom.length, line.length);
    data.write("data/a.ndjson", content, DataFiles.T0);

    assertThat(data.readAll("data/*.ndjson").records()).containsExactly("{\"a\":1}");
  }

  @Test
  void linesLongerThanTheReadBufferArriveWhole() throws Exception {
    String big = "{\"s\":\"" + "x".repeat(3 * FileContent.BUFFER_BYTES) + "\"}";
    data.write("data/a.ndjson", "{\"a\":1}\n" + big + "\n{\"a\":2}\n", 1);

    assertThat(data.readAll("data/*.ndjson").records())
        .containsExactly("{\"a\":1}", big, "{\"a\":2}");
  }

  @Test
  void twoValuesOnOneLineAreRefused() {
    Path file = data.write("data/a.ndjson", "{\"a\":1}\n{\"a\":2} {\"a\":3}\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.ndjson"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":2:9: not one JSON value");
  }

  @ParameterizedTest(name = "a line of {0} bytes")
  @ValueSource(ints = {2_000, 1_000_000})
  void aLineLongerThanTheLargestRecordComesOutMeasuredAndTheFileGoesOn(int length) {
    Path file =
        data.write(
            "data/a.ndjson", "{\"a\":1}\n  \"" + "x".repeat(length) + "\" \r\n{\"a\":3}\n", 1);
    FileDumpSource source =
        data.source(Decoder.NDJSON, new OversizePolicy(1024, 8), Optional.empty(), "data/*.ndjson");

    assertThat(read(source).events)
        .containsExactly(
            RecordingSink.begin(),
            new RecordingSink.Record("{\"a\":1}", file + ":1", DataFiles.CLOCK.millis()),
            new RecordingSink.NotKept(length + 2, Optional.empty(), "\"xxxxxxx", file + ":2"),
            new RecordingSink.Record("{\"a\":3}", file + ":3", DataFiles.CLOCK.millis()),
            RecordingSink.end(DataFiles.markOf(file)));
  }

  @Test
  void aLineAsLongAsTheLargestRecordIsRead() throws Exception {
    String record = "\"" + "x".repeat(1022) + "\"";
    data.write("data/a.ndjson", record + "\n", 1);
    FileDumpSource source =
        data.source(Decoder.NDJSON, new OversizePolicy(1024, 8), Optional.empty(), "data/*.ndjson");

    assertThat(read(source).records()).containsExactly(record);
  }

  private static RecordingSink read(FileDumpSource source) {
    try {
      return DataFiles.read(source, Optional.empty());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
