package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which decoder reads a file: the extension under {@code auto}, else the unit's choice. */
class DecoderChoiceTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void autoReadsNdjsonAndJsonlAsLines() throws Exception {
    data.write("data/a.ndjson", "{\"f\":\"ndjson\"}\n[1]\n", 1);
    data.write("data/b.jsonl", "{\"f\":\"jsonl\"}\n", 2);

    assertThat(data.readAll("data/*").records())
        .containsExactly("{\"f\":\"ndjson\"}", "[1]", "{\"f\":\"jsonl\"}");
  }

  @Test
  void autoReadsJsonAsAnArray() throws Exception {
    data.write("data/a.json", "[{\"f\":1},{\"f\":2}]", 1);

    assertThat(data.readAll("data/*").records()).containsExactly("{\"f\":1}", "{\"f\":2}");
  }

  @Test
  void autoReadsCsvWithAHeader() throws Exception {
    data.write("data/a.csv", "f\nx\n", 1);

    assertThat(data.readAll("data/*").records()).containsExactly("{\"f\":\"x\"}");
  }

  @Test
  void autoLooksAtTheExtensionUnderGzAndIgnoresCase() throws Exception {
    data.writeGzip("data/a.JSONL.GZ", 1, "{\"f\":1}\n");

    assertThat(data.readAll("data/*").records()).containsExactly("{\"f\":1}");
  }

  @Test
  void anExplicitDecoderOverridesTheExtension() throws Exception {
    data.write("data/a.json", "{\"f\":1}\n{\"f\":2}\n", 1);

    RecordingSink sink =
        DataFiles.read(data.source(Decoder.NDJSON, "data/*.json"), Optional.empty());

    assertThat(sink.records()).containsExactly("{\"f\":1}", "{\"f\":2}");
  }

  @Test
  void anExplicitDecoderReadsAnyExtension() throws Exception {
    data.write("data/export.txt", "id\n1\n", 1);

    RecordingSink sink = DataFiles.read(data.source(Decoder.CSV, "data/*.txt"), Optional.empty());

    assertThat(sink.records()).containsExactly("{\"id\":\"1\"}");
  }

  @Test
  void decodersAreNamedAsInTheConfiguration() {
    assertThat(Decoder.named("auto")).isEqualTo(Decoder.AUTO);
    assertThat(Decoder.named("ndjson")).isEqualTo(Decoder.NDJSON);
    assertThat(Decoder.named("json_array")).isEqualTo(Decoder.JSON_ARRAY);
    assertThat(Decoder.named("csv")).isEqualTo(Decoder.CSV);
  }

  @Test
  void anUnknownDecoderNameIsRefusedListingTheNames() {
    assertThatThrownBy(() -> Decoder.named("xml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown decoder \"xml\"; expected one of auto, ndjson, json_array, csv");
  }
}
