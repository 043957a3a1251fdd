package dfe.fetcher.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.CursorTokenMark;
import dfe.fetcher.core.row.FieldCursorMark;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.KeysetMark.BytesValue;
import dfe.fetcher.core.row.KeysetMark.DecimalValue;
import dfe.fetcher.core.row.KeysetMark.IntegerValue;
import dfe.fetcher.core.row.KeysetMark.LocalTimestampValue;
import dfe.fetcher.core.row.KeysetMark.StringValue;
import dfe.fetcher.core.row.KeysetMark.TimestampValue;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MarkCodecTest {

  private static final Instant COMMITTED_AT = Instant.parse("2026-05-01T12:00:01Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Looks like a credential; no error message may ever carry it. */
  private static final String SECRET = "sk_live_4f9Q2xSECRET";

  private static Mark roundTrip(Mark mark) throws Exception {
    return MarkCodec.decode(MarkCodec.encode(mark, COMMITTED_AT));
  }

  private static byte[] utf8(String document) {
    return document.getBytes(StandardCharsets.UTF_8);
  }

  private static String messageOfDecoding(String document) {
    MarkCodec.UnreadableMarkException thrown =
        catchThrowableOfType(
            MarkCodec.UnreadableMarkException.class, () -> MarkCodec.decode(utf8(document)));
    assertThat(thrown).as("decoding %s", document).isNotNull();
    return thrown.getMessage();
  }

  @Nested
  class RoundTrip {

    @Test
    void aFileMarkKeepsItsNanosecondsAndPath() throws Exception {
      FileMark mark =
          new FileMark(Instant.parse("2026-05-01T12:00:00.123456789Z"), "/d/ünïcode dir/a.ndjson");
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aFileMarkAtAWholeSecondKeepsItsInstant() throws Exception {
      FileMark mark = new FileMark(Instant.parse("2026-05-01T12:00:00Z"), "a");
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void integerKeysKeepTheFullSixtyFourBitRange() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new IntegerValue(Long.MIN_VALUE),
              new IntegerValue(0),
              new IntegerValue(Long.MAX_VALUE));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aDecimalKeyKeepsItsScale() throws Exception {
      Mark decoded = roundTrip(KeysetMark.of(new DecimalValue(new BigDecimal("1.50"))));

      BigDecimal value = ((DecimalValue) ((KeysetMark) decoded).values().get(0)).value();
      assertThat(value.scale()).isEqualTo(2);
      assertThat(value.unscaledValue()).isEqualTo(150);
    }

    @Test
    void aFortyDigitDecimalKeyKeepsEveryDigit() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new DecimalValue(new BigDecimal("1234567890123456789012345678901234567890")),
              new DecimalValue(new BigDecimal("-0.0000000000000000000000000000000000000001")),
              new DecimalValue(new BigDecimal("1E+5")));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aStringKeyKeepsUnicodeAndJsonSpecialCharacters() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new StringValue("ключ 鍵 🔑 \"quoted\" back\\slash\nnew line\u0000nul"),
              new StringValue(""),
              // UTF-16 columns can hold a lone surrogate; it travels as a JSON escape.
              new StringValue("lone \uD800 surrogate"));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void timestampKeysKeepMicrosecondsAndNanoseconds() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new TimestampValue(Instant.parse("2026-05-01T12:00:00.123456Z")),
              new TimestampValue(Instant.parse("2026-05-01T12:00:00.123456789Z")),
              new TimestampValue(Instant.parse("1969-12-31T23:59:59.999999999Z")));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void localTimestampKeysKeepTheirPrecisionIncludingAWholeMinute() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new LocalTimestampValue(LocalDateTime.parse("2026-05-01T12:00:00.123456")),
              new LocalTimestampValue(LocalDateTime.parse("2026-05-01T12:00:00.123456789")),
              // LocalDateTime.toString() drops zero seconds ("2026-05-01T12:00").
              new LocalTimestampValue(LocalDateTime.parse("2026-05-01T12:00:00")));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void bytesKeysKeepEveryByteIncludingNone() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new BytesValue(new byte[] {0, 1, (byte) 0xff, (byte) 0x80, 0x7f}),
              new BytesValue(new byte[0]));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aKeysetMarkKeepsItsValuesInKeyColumnOrder() throws Exception {
      KeysetMark mark =
          KeysetMark.of(
              new StringValue("tenant"),
              new IntegerValue(42),
              new DecimalValue(new BigDecimal("1.50")),
              new TimestampValue(Instant.parse("2026-05-01T12:00:00.123456Z")),
              new LocalTimestampValue(LocalDateTime.parse("2026-05-01T12:00:00.123456")),
              new BytesValue(new byte[] {0, 1}));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aWindowMarkKeepsItsEnd() throws Exception {
      WindowMark mark = new WindowMark(Instant.parse("2026-05-01T12:00:00.000000001Z"));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aWindowMarkKeepsTheItemItGotToInTheNextWindow() throws Exception {
      WindowMark mark =
          new WindowMark(
              Instant.parse("2026-05-01T12:00:00Z"),
              java.util.Optional.of(new WindowMark.Item("blob \"7\"", "2026-05-01T12:03:00")));
      assertThat(roundTrip(mark)).isEqualTo(mark);
      assertThat(
              JSON.readTree(MarkCodec.encode(mark, COMMITTED_AT))
                  .path("mark")
                  .path("after")
                  .path("position")
                  .asText())
          .isEqualTo("2026-05-01T12:03:00");
    }

    @Test
    void aWindowMarkWhoseAfterIsNoObjectIsUnreadable() {
      byte[] document =
          "{\"version\":2,\"mark\":{\"kind\":\"window\",\"end\":\"2026-05-01T12:00:00Z\",\"after\":\"x\"}}"
              .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> MarkCodec.decode(document))
          .isInstanceOf(MarkCodec.UnreadableMarkException.class)
          .hasMessage("a window mark's \"after\" is not an object");
    }

    @Test
    void aCursorTokenMarkKeepsItsTokenVerbatim() throws Exception {
      CursorTokenMark mark = new CursorTokenMark("eyJvZmZzZXQiOjQyfQ==/next?after=a%2Fb&x=\"y\"");
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aFileTailMarkKeepsEachFilesFingerprintPathAndOffsetInOrder() throws Exception {
      FileTailMark mark =
          new FileTailMark(
              List.of(
                  new FileTailMark.TailedFile("checksum:0:256:00ff", "/var/log/b.log", 0),
                  new FileTailMark.TailedFile(
                      "device_and_inode:803:12:4:1a2b", "/var/log/ünï a.log", Long.MAX_VALUE)));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aFileTailMarkWithoutFilesReadsBack() throws Exception {
      FileTailMark mark = new FileTailMark(List.of());
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aFieldCursorMarkKeepsItsGreatestTimeAndTheRecordsNearItInOrder() throws Exception {
      FieldCursorMark mark =
          new FieldCursorMark(
              Instant.parse("2026-05-01T12:00:00.123456789Z"),
              List.of(
                  new FieldCursorMark.Landed("evt \"9\"", Instant.parse("2026-05-01T11:58:00Z")),
                  new FieldCursorMark.Landed(
                      "evt-10", Instant.parse("2026-05-01T12:00:00.123456789Z"))));
      assertThat(roundTrip(mark)).isEqualTo(mark);
    }

    @Test
    void aFieldCursorMarkWithoutANearListIsUnreadable() {
      assertThat(
              messageOfDecoding(
                  "{\"version\":2,\"mark\":{\"kind\":\"field_cursor\","
                      + "\"greatest\":\"2026-05-01T12:00:00Z\"}}"))
          .isEqualTo("a field cursor mark needs a \"near\" list");
    }
  }

  @Nested
  class WrittenForm {

    @Test
    void theDocumentCarriesVersionOneAndTheCommitTime() throws Exception {
      JsonNode document =
          JSON.readTree(MarkCodec.encode(new WindowMark(Instant.EPOCH), COMMITTED_AT));

      assertThat(document.path("version").isInt()).isTrue();
      assertThat(document.path("version").asInt()).isEqualTo(MarkCodec.VERSION);
      assertThat(document.path("committed_at").asText()).isEqualTo("2026-05-01T12:00:01Z");
      assertThat(document.path("mark").path("kind").asText()).isEqualTo("window");
    }

    @Test
    void keyValuesAreWrittenAsTextSoNoneGoesThroughFloatingPoint() throws Exception {
      JsonNode document =
          JSON.readTree(
              MarkCodec.encode(
                  KeysetMark.of(
                      new IntegerValue(Long.MAX_VALUE), new DecimalValue(new BigDecimal("1.50"))),
                  COMMITTED_AT));

      JsonNode values = document.path("mark").path("values");
      assertThat(values.get(0).path("type").asText()).isEqualTo("integer");
      assertThat(values.get(0).path("value").isTextual()).isTrue();
      assertThat(values.get(0).path("value").asText()).isEqualTo("9223372036854775807");
      assertThat(values.get(1).path("type").asText()).isEqualTo("decimal");
      assertThat(values.get(1).path("value").asText()).isEqualTo("1.50");
    }

    @Test
    void theDocumentedExamplesRead() throws Exception {
      assertThat(
              MarkCodec.decode(
                  utf8(
                      "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":["
                          + "{\"type\":\"integer\",\"value\":\"42\"},"
                          + "{\"type\":\"decimal\",\"value\":\"1.50\"},"
                          + "{\"type\":\"string\",\"value\":\"x\"},"
                          + "{\"type\":\"timestamp\",\"value\":\"2026-05-01T12:00:00.123456Z\"},"
                          + "{\"type\":\"local_timestamp\",\"value\":\"2026-05-01T12:00:00.123456\"},"
                          + "{\"type\":\"bytes\",\"value\":\"AAE=\"}]}}")))
          .isEqualTo(
              KeysetMark.of(
                  new IntegerValue(42),
                  new DecimalValue(new BigDecimal("1.50")),
                  new StringValue("x"),
                  new TimestampValue(Instant.parse("2026-05-01T12:00:00.123456Z")),
                  new LocalTimestampValue(LocalDateTime.parse("2026-05-01T12:00:00.123456")),
                  new BytesValue(new byte[] {0, 1})));
    }

    @Test
    void unknownFieldsAreIgnored() throws Exception {
      assertThat(
              MarkCodec.decode(
                  utf8(
                      "{\"version\":1,\"written_by\":\"2.0\",\"mark\":{\"kind\":\"window\","
                          + "\"end\":\"2026-05-01T12:00:00Z\",\"zone\":\"UTC\"}}")))
          .isEqualTo(new WindowMark(Instant.parse("2026-05-01T12:00:00Z")));
    }

    @Test
    void theFirstBuildsUnversionedFileCursorStillReads() throws Exception {
      assertThat(
              MarkCodec.decode(
                  utf8(
                      "{\"mark\":{\"type\":\"file\",\"changed_at\":\"2026-05-01T12:00:00.123456789Z\","
                          + "\"path\":\"/d/a.ndjson\"},\"committed_at\":\"2026-05-01T12:00:01Z\"}")))
          .isEqualTo(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
    }
  }

  @Nested
  class Unreadable {

    @ParameterizedTest
    @ValueSource(
        strings = {
          "",
          "not json " + SECRET,
          "{\"mark\": {\"type\": \"fi",
          "[\"" + SECRET + "\"]",
          "\"" + SECRET + "\"",
          "42",
          "null",
          "{\"version\":1}",
          "{\"version\":1,\"mark\":\"" + SECRET + "\"}",
          "{\"version\":2,\"mark\":{\"kind\":\"file\"}}",
          "{\"version\":\"" + SECRET + "\",\"mark\":{\"kind\":\"file\"}}",
          "{\"version\":1.0,\"mark\":{\"kind\":\"window\",\"end\":\"2026-05-01T12:00:00Z\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"" + SECRET + "\"}}",
          "{\"version\":1,\"mark\":{}}",
          "{\"mark\":{\"type\":\"" + SECRET + "\",\"changed_at\":\"2026-05-01T12:00:00Z\"}}",
          "{\"mark\":{\"kind\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\",\"path\":\"p\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"file\",\"path\":\"/" + SECRET + "\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"file\",\"changed_at\":\""
              + SECRET
              + "\",\"path\":\"p\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\",\"path\":7}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":\"" + SECRET + "\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[\"" + SECRET + "\"]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\""
              + SECRET
              + "\",\"value\":\"1\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"integer\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"integer\",\"value\":42}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"integer\",\"value\":\"9223372036854775808\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"integer\",\"value\":\""
              + SECRET
              + "\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"decimal\",\"value\":\"1.5."
              + SECRET
              + "\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"decimal\",\"value\":\"1E+99999999999\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"timestamp\",\"value\":\""
              + SECRET
              + "\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"timestamp\",\"value\":\"2026-05-01T12:00:00\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"local_timestamp\",\"value\":\""
              + SECRET
              + "\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"bytes\",\"value\":\"!!"
              + SECRET
              + "\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":[{\"type\":\"bytes\",\"value\":\"A\"}]}}",
          "{\"version\":1,\"mark\":{\"kind\":\"window\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"window\",\"end\":\"" + SECRET + "\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"cursor_token\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"cursor_token\",\"token\":\"\"}}",
          "{\"version\":1,\"mark\":{\"kind\":\"cursor_token\",\"token\":[\"" + SECRET + "\"]}}",
          "{\"version\":2,\"mark\":{\"kind\":\"file_tail\"}}",
          "{\"version\":2,\"mark\":{\"kind\":\"file_tail\",\"files\":[{\"fingerprint\":\"x\",\"path\":\"/a\",\"offset\":\""
              + SECRET
              + "\"}]}}",
          "{\"version\":2,\"mark\":{\"kind\":\"file_tail\",\"files\":[{\"fingerprint\":\"\",\"path\":\"/a\",\"offset\":\"1\"}]}}",
          "{\"version\":2,\"mark\":{\"kind\":\"file_tail\",\"files\":[{\"fingerprint\":\"x\",\"path\":\"/a\",\"offset\":\"-1\"}]}}",
        })
    void anUnreadableDocumentIsReportedWithoutQuotingItsValues(String document) {
      String message = messageOfDecoding(document);

      assertThat(message).isNotBlank().doesNotContain(SECRET).doesNotContain("sk_live");
    }

    @Test
    void notJsonSaysSo() {
      assertThat(messageOfDecoding("{\"mark\": {\"type\": \"fi")).contains("not JSON");
    }

    @Test
    void anUnknownVersionNamesTheVersionThisBuildReads() {
      assertThat(messageOfDecoding("{\"version\":3,\"mark\":{\"kind\":\"file\"}}"))
          .contains("version 3")
          .contains("reads 1 and 2");
    }

    @Test
    void anUnknownKindIsNeverGuessedAt() {
      assertThat(
              messageOfDecoding(
                  "{\"version\":1,\"mark\":{\"kind\":\"tail_offset\",\"offset\":\"7\"}}"))
          .contains("kind");
    }

    @Test
    void aMissingFieldIsNamed() {
      assertThat(
              messageOfDecoding(
                  "{\"version\":1,\"mark\":{\"kind\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\"}}"))
          .contains("\"path\"");
    }

    @Test
    void aBadDecimalNamesItsPositionAndType() {
      assertThat(
              messageOfDecoding(
                  "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":"
                      + "[{\"type\":\"integer\",\"value\":\"1\"},"
                      + "{\"type\":\"decimal\",\"value\":\"one\"}]}}"))
          .contains("key value 2")
          .contains("decimal");
    }

    @Test
    void badBase64SaysSo() {
      assertThat(
              messageOfDecoding(
                  "{\"version\":1,\"mark\":{\"kind\":\"keyset\",\"values\":"
                      + "[{\"type\":\"bytes\",\"value\":\"*not base64*\"}]}}"))
          .contains("base64");
    }
  }

  @Property
  void everyKeysetMarkReadsBackAsWritten(@ForAll("keysetMarks") KeysetMark mark) throws Exception {
    assertThat(roundTrip(mark)).isEqualTo(mark);
  }

  @Property
  void everyFileMarkReadsBackAsWritten(
      @ForAll("instants") Instant changedAt, @ForAll("wellFormedText") String path)
      throws Exception {
    FileMark mark = new FileMark(changedAt, path);
    assertThat(roundTrip(mark)).isEqualTo(mark);
  }

  @Provide
  Arbitrary<KeysetMark> keysetMarks() {
    Arbitrary<KeysetMark.Value> value =
        Arbitraries.oneOf(
            Arbitraries.longs().map(IntegerValue::new),
            Combinators.combine(
                    Arbitraries.bigIntegers()
                        .between(
                            new BigDecimal("-1E40").toBigInteger(),
                            new BigDecimal("1E40").toBigInteger()),
                    Arbitraries.integers().between(-20, 40))
                .as((unscaled, scale) -> new DecimalValue(new BigDecimal(unscaled, scale))),
            wellFormedText().map(StringValue::new),
            instants().map(TimestampValue::new),
            instants()
                .map(
                    instant ->
                        LocalDateTime.ofEpochSecond(
                            instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC))
                .map(LocalTimestampValue::new),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(BytesValue::new));
    return value.list().ofMinSize(1).ofMaxSize(6).map(KeysetMark::new);
  }

  @Provide
  Arbitrary<Instant> instants() {
    // Years 0000 to 9999 and beyond, at any nanosecond.
    return Combinators.combine(
            Arbitraries.longs().between(-62_167_219_200L, 400_000_000_000L),
            Arbitraries.integers().between(0, 999_999_999))
        .as(Instant::ofEpochSecond);
  }

  /** Any text a database or file system hands over: whole code points, including the astral. */
  @Provide
  Arbitrary<String> wellFormedText() {
    return Arbitraries.integers()
        .between(0, Character.MAX_CODE_POINT)
        .filter(codePoint -> !(codePoint >= 0xD800 && codePoint <= 0xDFFF))
        .list()
        .ofMaxSize(24)
        .map(
            codePoints -> {
              StringBuilder text = new StringBuilder();
              codePoints.forEach(text::appendCodePoint);
              return text.toString();
            });
  }

  @Test
  void aFileMarkWithItsCommittedFilesReadsBackEqual() throws Exception {
    FileMark mark =
        new FileMark(
            Instant.parse("2026-05-01T12:00:00.123456789Z"),
            "/d/a.ndjson",
            List.of(
                new FileMark.CommittedFile(
                    "/d/a.ndjson",
                    "(dev=803,ino=12)",
                    120,
                    Instant.parse("2026-04-30T00:00:00Z"),
                    Instant.parse("2026-05-01T12:00:00.123456789Z"))));

    assertThat(MarkCodec.decode(MarkCodec.encode(mark, Instant.EPOCH))).isEqualTo(mark);
  }

  @Test
  void aVersionOneFileMarkCoversNoFile() throws Exception {
    byte[] v1 =
        ("{\"version\":1,\"mark\":{\"kind\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\","
                + "\"path\":\"/d/a.ndjson\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThat(MarkCodec.decode(v1))
        .isEqualTo(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
  }

  @Test
  void theVersionlessFileCursorCoversNoFile() throws Exception {
    byte[] legacy =
        ("{\"mark\":{\"type\":\"file\",\"changed_at\":\"2026-05-01T12:00:00Z\","
                + "\"path\":\"/d/a.ndjson\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThat(MarkCodec.decode(legacy))
        .isEqualTo(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
  }
}
