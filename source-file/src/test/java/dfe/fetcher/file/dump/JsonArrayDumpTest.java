package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.markOf;
import static dfe.fetcher.file.dump.RecordingSink.begin;
import static dfe.fetcher.file.dump.RecordingSink.end;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.SourceException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JSON array files: one record per element, streamed. */
class JsonArrayDumpTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void eachElementIsOneRecordEmittedCompactly() throws Exception {
    data.write(
        "data/a.json",
        "[\n  {\"id\": 1, \"tags\": [\"x\", \"y\"]},\n  {\"id\": 2, \"o\": {}}\n]\n",
        1);

    assertThat(data.readAll("data/*.json").records())
        .containsExactly("{\"id\":1,\"tags\":[\"x\",\"y\"]}", "{\"id\":2,\"o\":{}}");
  }

  @Test
  void numbersKeepTheirExactText() throws Exception {
    data.write(
        "data/a.json",
        "[{\"big\": 12345678901234567890123, \"f\": 1.50e+3, \"d\": 0.1000000000000000055511}]",
        1);

    assertThat(data.readAll("data/*.json").records())
        .containsExactly(
            "{\"big\":12345678901234567890123,\"f\":1.50e+3,\"d\":0.1000000000000000055511}");
  }

  @Test
  void elementsMayBeAnyJsonValue() throws Exception {
    data.write("data/a.json", "[1, \"two\", [3], null, true]", 1);

    assertThat(data.readAll("data/*.json").records())
        .containsExactly("1", "\"two\"", "[3]", "null", "true");
  }

  @Test
  void anElementsOriginIsTheLineItStartsOn() throws Exception {
    Path file = data.write("data/a.json", "[\n{\"a\":1},\n\n  {\n\"a\":2\n}\n]", 1);

    assertThat(data.readAll("data/*.json").origins()).containsExactly(file + ":2", file + ":4");
  }

  @Test
  void anEmptyArrayIsAPartWithoutRows() throws Exception {
    Path file = data.write("data/a.json", " [ ] \n", 1);

    assertThat(data.readAll("data/*.json").events).containsExactly(begin(), end(markOf(file)));
  }

  @Test
  void anEmptyFileIsAPartWithoutRows() throws Exception {
    Path file = data.write("data/a.json", "", 1);

    assertThat(data.readAll("data/*.json").events).containsExactly(begin(), end(markOf(file)));
  }

  @Test
  void aFileThatIsNotAnArrayIsRefused() {
    Path file = data.write("data/a.json", "\n{\"a\":1}", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessage(file + ":2: expected the file to be one JSON array, found an object instead");
  }

  @Test
  void contentAfterTheArrayIsRefused() {
    Path file = data.write("data/a.json", "[1]\n[2]\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":2: more content after the JSON array");
  }

  @Test
  void aMalformedElementIsRefusedAtItsLine() {
    Path file = data.write("data/a.json", "[\n{\"a\":1},\n{\"a\":}\n]", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":3:6: not valid JSON: ");
  }

  @Test
  void anUnclosedArrayIsRefused() {
    Path file = data.write("data/a.json", "[\n{\"a\":1},\n{\"a\":2}\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.json"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining("not valid JSON: unexpected end of input");
  }

  @Test
  void anElementLargerThanTheLargestRecordComesOutMeasuredAndTheFileGoesOn() throws Exception {
    Path file = data.write("data/a.json", "[1,\n[" + "1, ".repeat(100_000) + "1],\n2]", 1);
    FileDumpSource source =
        data.source(
            Decoder.JSON_ARRAY, new OversizePolicy(1024, 4), Optional.empty(), "data/*.json");

    assertThat(DataFiles.read(source, Optional.empty()).events)
        .containsExactly(
            RecordingSink.begin(),
            new RecordingSink.Record("1", file + ":1", DataFiles.CLOCK.millis()),
            // Re-emitted compactly: "[" + 100 000 times "1," + "1]".
            new RecordingSink.NotKept(200_003, Optional.empty(), "[1,1", file + ":2"),
            new RecordingSink.Record("2", file + ":3", DataFiles.CLOCK.millis()),
            RecordingSink.end(DataFiles.markOf(file)));
  }
}
