package dfe.fetcher.core.enrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnrichmentTest {

  private static final EnrichmentFields FIELDS =
      new EnrichmentFields(1_777_636_800_123L, 1_777_636_800_456L, "crm", "crm.contacts");

  private static final String MEMBERS =
      "\"_timestamp_fetcher\":1777636800123,\"_timestamp_received\":1777636800456,"
          + "\"_source\":\"crm\",\"_source_fetcher\":\"crm.contacts\"";

  private static final FrameHead HEAD =
      new FrameHead(
          "01a17720-ca00-73ab-95da-cb8f8c773fe6",
          "2026-05-01T12:00:00.123Z",
          "2026-05-01T12:00:00.123Z",
          "crm.contacts",
          4);

  // Duplicate keys would be a silent loss downstream, so every parse here refuses them.
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private static String text(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  private static ObjectNode parse(byte[] json) {
    try {
      JsonNode node = STRICT.readTree(json);
      assertThat(node).as("parses as a JSON object: %s", text(json)).isInstanceOf(ObjectNode.class);
      return (ObjectNode) node;
    } catch (IOException e) {
      throw new AssertionError("not valid JSON: " + text(json), e);
    }
  }

  private static List<String> keys(ObjectNode object) {
    List<String> keys = new ArrayList<>();
    object.properties().forEach(entry -> keys.add(entry.getKey()));
    return keys;
  }

  private static byte[] enrichRecord(String record) {
    return Enrichment.enrichRecord(RawRecord.of(record), FIELDS);
  }

  private static void assertCarriesTheFields(ObjectNode object) {
    assertThat(object.get("_timestamp_fetcher").asLong()).isEqualTo(1_777_636_800_123L);
    assertThat(object.get("_timestamp_received").asLong()).isEqualTo(1_777_636_800_456L);
    assertThat(object.get("_source").asText()).isEqualTo("crm");
    assertThat(object.get("_source_fetcher").asText()).isEqualTo("crm.contacts");
  }

  // --- frames ---

  @Test
  void aFrameGetsTheFourFieldsAfterItsOwnInOrder() {
    byte[] frame = FrameCodec.encode(new Frame.Row(HEAD, RawRecord.of("{\"id\":7}")));
    String enriched = text(Enrichment.enrichFrame(frame, FIELDS));
    String original = text(frame);
    assertThat(enriched)
        .isEqualTo(original.substring(0, original.length() - 1) + "," + MEMBERS + "}");
    assertThat(keys(parse(enriched.getBytes(StandardCharsets.UTF_8))))
        .containsExactly(
            "kind",
            "snapshot_id",
            "snapshot_at",
            "timestamp",
            "store",
            "seq",
            "record",
            "_timestamp_fetcher",
            "_timestamp_received",
            "_source",
            "_source_fetcher");
  }

  @Test
  void aFramesRecordStaysByteIdentical() throws InvalidFrameException {
    String record = "{ \"b\" : 1.50 ,\"a\":[true , null],\"_source\":\"\\u00e9\", \"n\":1e3 }";
    byte[] frame = FrameCodec.encode(new Frame.Row(HEAD, RawRecord.of(record)));
    byte[] enriched = Enrichment.enrichFrame(frame, FIELDS);
    assertThat(text(enriched)).contains("\"record\":" + record + ",\"_timestamp_fetcher\"");
    Frame parsed = FrameCodec.parse(enriched);
    assertThat(((Frame.Row) parsed).record()).isEqualTo(RawRecord.of(record));
  }

  @Test
  void everyKindOfFrameIsEnriched() {
    Frame[] frames = {
      new Frame.Begin(HEAD.atSeq(0), OptionalLong.of(3)),
      new Frame.Oversize(HEAD, 2_000_000, Optional.of("k\"1")),
      new Frame.End(HEAD.atSeq(5), 5, "2026-05-01T12:00:01.000Z"),
    };
    for (Frame frame : frames) {
      ObjectNode enriched = parse(Enrichment.enrichFrame(FrameCodec.encode(frame), FIELDS));
      assertThat(enriched.get("kind").asText()).isEqualTo(frame.kind().wireName());
      assertCarriesTheFields(enriched);
    }
  }

  @Test
  void anEmptyObjectGetsNoLeadingComma() {
    assertThat(text(Enrichment.enrichFrame("{ }".getBytes(StandardCharsets.UTF_8), FIELDS)))
        .isEqualTo("{ " + MEMBERS + "}");
  }

  @Test
  void trailingWhitespaceAfterAFrameIsDropped() {
    byte[] enriched =
        Enrichment.enrichFrame("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8), FIELDS);
    assertThat(text(enriched)).isEqualTo("{\"a\":1," + MEMBERS + "}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "[1]", "{\"a\":1", "\"{}\"", "}"})
  void somethingThatIsNotAnObjectIsRefusedAsAFrame(String bytes) {
    assertThatThrownBy(() -> Enrichment.enrichFrame(bytes.getBytes(StandardCharsets.UTF_8), FIELDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a frame must be a JSON object");
  }

  // --- escaping ---

  @Test
  void oddStringsAreEscapedAndReadBackUnchanged() {
    String source = "quote\" back\\slash\nnew line\ttab\u0001ctl é ✓ 😀 \u2028 </script>";
    String fetcher = "conn.\"unit\"\\";
    EnrichmentFields odd = new EnrichmentFields(0, -1, source, fetcher);
    byte[] enriched = Enrichment.enrichFrame("{\"a\":1}".getBytes(StandardCharsets.UTF_8), odd);
    ObjectNode object = parse(enriched);
    assertThat(object.get("_source").asText()).isEqualTo(source);
    assertThat(object.get("_source_fetcher").asText()).isEqualTo(fetcher);
    assertThat(object.get("_timestamp_received").asLong()).isEqualTo(-1);
    assertThat(text(enriched)).doesNotContain("\n").doesNotContain("\u0001");
  }

  @Test
  void aNullSourceIsRefused() {
    assertThatThrownBy(() -> new EnrichmentFields(1, 2, null, "c.u"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("source");
  }

  // --- tail records ---

  @Test
  void anObjectWithoutCollisionsIsSplicedWithItsBytesUnchanged() {
    String record = "{ \"b\" : 1.50 ,\"a\":[true , null], \"nested\":{\"_source\":1} }";
    String enriched = text(enrichRecord(record));
    assertThat(enriched).isEqualTo(record.substring(0, record.length() - 1) + "," + MEMBERS + "}");
    ObjectNode object = parse(enriched.getBytes(StandardCharsets.UTF_8));
    assertThat(object.get("nested").get("_source").asInt()).isEqualTo(1);
    assertCarriesTheFields(object);
  }

  @Test
  void anEmptyRecordGetsTheFieldsAlone() {
    assertThat(text(enrichRecord("{}"))).isEqualTo("{" + MEMBERS + "}");
  }

  @Test
  void aCollidingKeyKeepsTheRecordsValueUnderOriginal() {
    String enriched = text(enrichRecord("{\"id\":1,\"_source\":\"mine\",\"z\":2}"));
    assertThat(enriched)
        .isEqualTo("{\"id\":1,\"_source_original\":\"mine\",\"z\":2," + MEMBERS + "}");
    assertCarriesTheFields(parse(enriched.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void whenOriginalIsTakenTheNextFreeNumberIsUsed() {
    ObjectNode object =
        parse(enrichRecord("{\"_source\":\"mine\",\"_source_original\":\"older\"}"));
    assertThat(keys(object))
        .containsExactly(
            "_source_original_2",
            "_source_original",
            "_timestamp_fetcher",
            "_timestamp_received",
            "_source",
            "_source_fetcher");
    assertThat(object.get("_source_original_2").asText()).isEqualTo("mine");
    assertThat(object.get("_source_original").asText()).isEqualTo("older");
    assertCarriesTheFields(object);
  }

  @Test
  void theChainSkipsEveryTakenNumber() {
    ObjectNode object =
        parse(
            enrichRecord(
                "{\"_source_original_2\":2,\"_source\":0,\"_source_original\":1,"
                    + "\"_source_original_4\":4}"));
    assertThat(object.get("_source_original_3").asInt()).isEqualTo(0);
    assertThat(object.get("_source_original").asInt()).isEqualTo(1);
    assertThat(object.get("_source_original_2").asInt()).isEqualTo(2);
    assertThat(object.get("_source_original_4").asInt()).isEqualTo(4);
  }

  @Test
  void allFourCanCollideAtOnce() {
    ObjectNode object =
        parse(
            enrichRecord(
                "{\"_source_fetcher\":\"f\",\"_timestamp_received\":2,"
                    + "\"_timestamp_fetcher\":1,\"_source\":\"s\"}"));
    assertThat(keys(object))
        .containsExactly(
            "_source_fetcher_original",
            "_timestamp_received_original",
            "_timestamp_fetcher_original",
            "_source_original",
            "_timestamp_fetcher",
            "_timestamp_received",
            "_source",
            "_source_fetcher");
    assertThat(object.get("_timestamp_fetcher_original").asInt()).isEqualTo(1);
    assertCarriesTheFields(object);
  }

  @Test
  void aRepeatedCollidingKeyGetsOneNameEach() {
    ObjectNode object = parse(enrichRecord("{\"_source\":\"first\",\"_source\":\"second\"}"));
    assertThat(object.get("_source_original").asText()).isEqualTo("first");
    assertThat(object.get("_source_original_2").asText()).isEqualTo("second");
  }

  @Test
  void aCollidingKeyWrittenWithEscapesIsRecognisedAndRewrittenPlain() {
    String enriched = text(enrichRecord("{\"_sour\\u0063e\":\"mine\"}"));
    assertThat(enriched).isEqualTo("{\"_source_original\":\"mine\"," + MEMBERS + "}");
  }

  @Test
  void collisionsRenameKeysOnlyAndCopyEveryValueAsWritten() {
    String record =
        "{ \"_source\" : {\"x\": 1.50, \"y\":[1e3 ,\"\\\"q\\\"\"]} ,\n"
            + " \"a\\\"b\" : -0.0 , \"_source_fetcher\":null }";
    String enriched = text(enrichRecord(record));
    String expected =
        record
                .replace("\"_source\" :", "\"_source_original\" :")
                .replace("\"_source_fetcher\":", "\"_source_fetcher_original\":")
                .substring(0, record.length() + "_original".length() * 2 - 1)
            + ","
            + MEMBERS
            + "}";
    assertThat(enriched).isEqualTo(expected);
    parse(enriched.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aKeyContainingAnEscapedQuoteBeforeACollisionIsCopiedIntact() {
    ObjectNode object = parse(enrichRecord("{\"a\\\"_source\":1,\"_source\":2}"));
    assertThat(object.get("a\"_source").asInt()).isEqualTo(1);
    assertThat(object.get("_source_original").asInt()).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"[1,{\"a\":2}]", "\"text\"", "42", "-1.5e3", "true", "null"})
  void aRecordThatIsNotAnObjectIsWrappedUnderRecord(String record) {
    String enriched = text(enrichRecord(record));
    assertThat(enriched).isEqualTo("{\"_record\":" + record + "," + MEMBERS + "}");
    ObjectNode object = parse(enriched.getBytes(StandardCharsets.UTF_8));
    assertThat(object.get("_record")).isEqualTo(parseValue(record));
  }

  @Test
  void theWrappedRecordLosesOnlyTheWhitespaceAroundIt() {
    assertThat(text(enrichRecord("\n [ 1 , 2 ] \n")))
        .isEqualTo("{\"_record\":[ 1 , 2 ]," + MEMBERS + "}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "{\"a\":", "{\"a\":1} {}", "[1,]", "{'a':1}", "nope"})
  void aRecordThatIsNotOneJsonValueIsRefused(String record) {
    assertThatThrownBy(() -> enrichRecord(record))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the record ");
  }

  private static JsonNode parseValue(String json) {
    try {
      return STRICT.readTree(json);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
