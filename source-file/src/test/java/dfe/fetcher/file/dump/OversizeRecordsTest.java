package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dfe.fetcher.core.oversize.OversizePolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record longer than {@code max_record_bytes} comes out of every decoder measured, not held: its
 * exact length, its first {@code max_dlq_bytes} bytes, and its {@code row_key} when the key comes
 * before the bytes the decoder stopped keeping; the file goes on with its next record.
 */
class OversizeRecordsTest {

  private static final OversizePolicy POLICY = new OversizePolicy(64, 8);
  private static final Optional<String> ROW_KEY = Optional.of("/id");

  /** Long enough to be streamed to the output in chunks, with characters that need escaping. */
  private static final String LONG_TEXT = "é\"\\\n\u0001 \uD83D\uDE00".repeat(20_000);

  /** Jackson's generator as the decoders configure it. */
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void aLongNdjsonLineKeepsItsKeyWhenTheKeyComesFirst() throws Exception {
    String first = "{\"id\":\"k1\",\"blob\":\"" + "x".repeat(500) + "\"}";
    String second = "{\"blob\":\"" + "x".repeat(500) + "\",\"id\":\"k2\"}";
    Path file = data.write("data/a.ndjson", first + "\n" + second + "\n{\"id\":\"k3\"}\n", 1);

    assertThat(read(Decoder.NDJSON, "data/*.ndjson").events)
        .containsExactly(
            RecordingSink.begin(),
            new RecordingSink.NotKept(
                first.length(), Optional.of("k1"), "{\"id\":\"k", file + ":1"),
            new RecordingSink.NotKept(second.length(), Optional.empty(), "{\"blob\":", file + ":2"),
            new RecordingSink.Record("{\"id\":\"k3\"}", file + ":3", DataFiles.CLOCK.millis()),
            RecordingSink.end(DataFiles.markOf(file)));
  }

  @Test
  void aLongCsvFieldIsMeasuredExactlyAsTheRecordWouldHaveBeenWritten() throws Exception {
    String quoted = "\"" + LONG_TEXT.replace("\"", "\"\"") + "\"";
    Path file = data.write("data/a.csv", "id,blob\nk1," + quoted + "\nk2,short\n", 1);

    assertThat(read(Decoder.CSV, "data/*.csv").events)
        .containsExactly(
            RecordingSink.begin(),
            new RecordingSink.NotKept(
                compactLength("k1", LONG_TEXT), Optional.of("k1"), "{\"id\":\"k", file + ":2"),
            new RecordingSink.Record(
                "{\"id\":\"k2\",\"blob\":\"short\"}",
                // The quoted field spans a line per newline in it.
                file + ":" + (2 + 20_000 + 1),
                DataFiles.CLOCK.millis()),
            RecordingSink.end(DataFiles.markOf(file)));
  }

  @Test
  void aLongJsonArrayElementIsMeasuredExactlyAsItWouldHaveBeenReEmitted() throws Exception {
    String escaped = new String(jsonString(LONG_TEXT), StandardCharsets.UTF_8);
    Path file =
        data.write(
            "data/a.json",
            "[\n{ \"id\" : \"k1\",\n  \"blob\" : " + escaped + " },\n{\"id\":\"k2\"}]",
            1);

    assertThat(read(Decoder.JSON_ARRAY, "data/*.json").events)
        .containsExactly(
            RecordingSink.begin(),
            new RecordingSink.NotKept(
                compactLength("k1", LONG_TEXT), Optional.of("k1"), "{\"id\":\"k", file + ":2"),
            new RecordingSink.Record("{\"id\":\"k2\"}", file + ":4", DataFiles.CLOCK.millis()),
            RecordingSink.end(DataFiles.markOf(file)));
  }

  private RecordingSink read(Decoder decoder, String glob) throws Exception {
    return DataFiles.read(data.source(decoder, POLICY, ROW_KEY, glob), Optional.empty());
  }

  /** The length of {"id":id,"blob":blob} as Jackson's generator writes it. */
  private static long compactLength(String id, String blob) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeStartObject();
      generator.writeStringField("id", id);
      generator.writeStringField("blob", blob);
      generator.writeEndObject();
    }
    return out.size();
  }

  private static byte[] jsonString(String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeString(text);
    }
    return out.toByteArray();
  }
}
