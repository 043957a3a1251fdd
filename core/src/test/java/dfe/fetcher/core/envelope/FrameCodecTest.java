package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FrameCodecTest {

  private static final FrameHead HEAD =
      new FrameHead(
          "01a17720-ca00-73ab-95da-cb8f8c773fe6",
          "2026-05-01T12:00:00.123Z",
          "2026-05-01T12:00:00.123Z",
          "inventory.hosts",
          0);

  private static String encode(Frame frame) {
    return new String(FrameCodec.encode(frame), StandardCharsets.UTF_8);
  }

  private static Frame parse(String json) throws InvalidFrameException {
    return FrameCodec.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void beginIsWrittenWithTheHeadKeysInOrderAndTotalWhenKnown() {
    assertThat(encode(new Frame.Begin(HEAD, OptionalLong.of(42))))
        .isEqualTo(
            "{\"kind\":\"begin\",\"snapshot_id\":\"01a17720-ca00-73ab-95da-cb8f8c773fe6\","
                + "\"snapshot_at\":\"2026-05-01T12:00:00.123Z\","
                + "\"timestamp\":\"2026-05-01T12:00:00.123Z\",\"store\":\"inventory.hosts\","
                + "\"seq\":0,\"total\":42}");
    assertThat(encode(new Frame.Begin(HEAD, OptionalLong.empty()))).doesNotContain("total");
  }

  @Test
  void rowEmbedsTheRecordBytesVerbatim() {
    String record = "{ \"b\" : 1.50,\"a\":[true , null],\"é\":\"\\u00e9\" }";
    String json = encode(new Frame.Row(HEAD.atSeq(3), RawRecord.of(record)));
    assertThat(json).endsWith(",\"seq\":3,\"record\":" + record + "}");
  }

  @Test
  void oversizeCarriesBytesAndRowKeyOnlyWhenPresent() {
    assertThat(encode(new Frame.Oversize(HEAD.atSeq(1), 2_000_000, Optional.of("h\"1"))))
        .endsWith(",\"seq\":1,\"bytes\":2000000,\"row_key\":\"h\\\"1\"}");
    assertThat(encode(new Frame.Oversize(HEAD.atSeq(1), 5, Optional.empty())))
        .endsWith(",\"seq\":1,\"bytes\":5}");
  }

  @Test
  void endCarriesRowCountThenCompletedAt() {
    assertThat(encode(new Frame.End(HEAD.atSeq(7), 7, "2026-05-01T12:00:01.000Z")))
        .endsWith(",\"seq\":7,\"row_count\":7,\"completed_at\":\"2026-05-01T12:00:01.000Z\"}");
  }

  @Test
  void everyKindRoundTrips() throws InvalidFrameException {
    Frame[] frames = {
      new Frame.Begin(HEAD, OptionalLong.of(9)),
      new Frame.Begin(HEAD, OptionalLong.empty()),
      new Frame.Row(HEAD.atSeq(4), RawRecord.of("{\"id\":\"4\",\"n\":[1,2]}")),
      new Frame.Oversize(HEAD.atSeq(5), 1234, Optional.of("k")),
      new Frame.Oversize(HEAD.atSeq(6), 1234, Optional.empty()),
      new Frame.End(HEAD.atSeq(7), 7, "2026-05-01T12:00:01.000Z"),
    };
    for (Frame frame : frames) {
      assertThat(FrameCodec.parse(FrameCodec.encode(frame))).isEqualTo(frame);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\":{\"b\":[1,{\"c\":null}]}}",
        "[1,\"two\",3.5]",
        "\"a bare string\"",
        "\"esc\\\"aped\"",
        "42",
        "-1.5e3",
        "null",
        "true",
        "{}"
      })
  void aParsedRowKeepsTheRecordBytesAsTheyStood(String record) throws InvalidFrameException {
    String line =
        "{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\","
            + "\"store\":\"a.b\",\"record\":"
            + record
            + " ,\"seq\":0}";
    Frame.Row row = (Frame.Row) parse(line);
    assertThat(row.record().toString()).isEqualTo(record);
  }

  @Test
  void aFrameInTheMiddleOfALargerBufferParsesFromItsOffset() throws InvalidFrameException {
    String frame =
        "{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\","
            + "\"store\":\"a.b\",\"seq\":2,\"record\":{\"x\":\"y\"}}";
    byte[] buffer = ("garbage\n" + frame + "\nmore").getBytes(StandardCharsets.UTF_8);
    Frame.Row row = (Frame.Row) FrameCodec.parse(buffer, 8, frame.length());
    assertThat(row.record().toString()).isEqualTo("{\"x\":\"y\"}");
    assertThat(row.head().seq()).isEqualTo(2);
  }

  @Test
  void fieldsOfOtherKindsAndUnknownFieldsAreIgnored() throws InvalidFrameException {
    Frame frame =
        parse(
            "{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\","
                + "\"store\":\"a.b\",\"seq\":0,\"record\":1,\"bytes\":\"not a number\","
                + "\"row_count\":[],\"_source\":\"x\"}");
    assertThat(frame.kind()).isEqualTo(FrameKind.ROW);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json at all | not valid JSON",
        "[1,2,3] | not a JSON object but an array",
        "'{\"kind\":\"middle\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":3}'"
            + " | kind \"middle\" is not one of begin, row, oversize, end",
        "'{\"kind\":\"row\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":0,\"record\":1}'"
            + " | missing snapshot_id",
        "'{\"kind\":\"row\",\"snapshot_id\":\"\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":0,\"record\":1}'"
            + " | snapshot_id is an empty string",
        "'{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":-1,\"record\":1}'"
            + " | seq is negative (-1)",
        "'{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":1.0,\"record\":1}'"
            + " | seq is a fractional number, not a non-negative integer",
        "'{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":5}'"
            + " | a row frame has no record",
        "'{\"kind\":\"oversize\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":5,\"bytes\":9,\"row_key\":7}'"
            + " | row_key is the number 7, not a string",
        "'{\"kind\":\"oversize\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":5}'"
            + " | missing bytes",
        "'{\"kind\":\"end\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":5,\"row_count\":5}'"
            + " | missing completed_at",
        "'{\"kind\":\"end\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":7,\"seq\":5,\"row_count\":5,\"completed_at\":\"t\"}'"
            + " | store is the number 7, not a string",
        "'{\"kind\":\"row\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":99999999999,\"record\":1}'"
            + " | seq 99999999999 is beyond 4294967295",
        "'{\"kind\":\"begin\",\"snapshot_id\":\"s\",\"snapshot_at\":\"t\",\"timestamp\":\"t\",\"store\":\"a.b\",\"seq\":0} {}'"
            + " | more than one JSON value on the line",
      })
  void nonEnvelopeBytesAreRefusedWithTheReason(String line, String reason) {
    assertThatThrownBy(() -> parse(line))
        .isInstanceOf(InvalidFrameException.class)
        .hasMessageContaining(reason);
  }
}
