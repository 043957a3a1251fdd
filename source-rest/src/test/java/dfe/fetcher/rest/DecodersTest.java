package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DecodersTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection dump(String rows) {
    return dump(rows, "");
  }

  /** A dump of /v1/assets whose pages may hold at most 1 KiB. */
  private RestConnection boundedDump(String rows) {
    return dump(rows, ", max_page_bytes: 1024");
  }

  private RestConnection dump(String rows, String more) {
    return RestFixture.connection(
        """
        topic: lab
        vars: {host: "%s"}
        profile:
          base_url: "{{ vars.host }}/v1"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: %s%s}
        """
            .formatted(server.url(), rows, more));
  }

  @Test
  void jsonArrayRowsArriveInOrderAsWritten() throws Exception {
    server.on("/v1/assets", ok("[{\"id\":1,\"n\":0.10000000000000000555},{\"id\":2}]"));

    RecordingSink sink = RestFixture.read(dump("{decoder: json_array}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly("{\"id\":1,\"n\":0.10000000000000000555}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/v1/assets");
  }

  @Test
  void ndjsonLinesAreRowsAndBlankLinesAreNot() throws Exception {
    server.on("/v1/assets", ok("{\"id\":1}\r\n\n{\"id\":2}\n{\"id\":3}"));

    RecordingSink sink = RestFixture.read(dump("{decoder: ndjson}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void jsonAtReadsTheArrayAtThePointer() throws Exception {
    server.on("/v1/assets", ok("{\"data\":{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}]},\"n\":2}"));

    RecordingSink sink = RestFixture.read(dump("{decoder: json_at, at: /data/items}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":\"a\"}", "{\"id\":\"b\"}");
  }

  @Test
  void documentIsOneRow() throws Exception {
    server.on("/v1/assets", ok("{\"status\":\"green\",\"nodes\":3}"));

    RecordingSink sink = RestFixture.read(dump("{decoder: document}"), "assets");

    assertThat(sink.records()).containsExactly("{\"status\":\"green\",\"nodes\":3}");
  }

  @Test
  void csvRowsAreObjectsOfStringsUnderTheHeader() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200,
            "text/csv",
            "id,name\r\n1,\"web, \"\"east\"\"\"\r\n2,db\r\n".getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":\"1\",\"name\":\"web, \\\"east\\\"\"}", "{\"id\":\"2\",\"name\":\"db\"}");
  }

  @Test
  void aGzipBodyIsDecodedAndGzipIsAskedFor() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write("{\"id\":1}\n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8));
    }
    server.on(
        "/v1/assets",
        ApiServer.send(
            200, "application/x-ndjson", zipped.toByteArray(), "Content-Encoding", "gzip"));

    RecordingSink sink = RestFixture.read(dump("{decoder: ndjson}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.requests().get(0).header("Accept-Encoding")).isEqualTo("gzip");
  }

  /** 2,000 NDJSON lines, gzipped: enough that a cut lands in the middle of the deflate stream. */
  private static byte[] gzippedLines() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      for (int i = 0; i < 2000; i++) {
        gzip.write(
            ("{\"id\":" + i + ",\"pad\":\"" + Integer.toHexString(i * 7919) + "\"}\n")
                .getBytes(StandardCharsets.UTF_8));
      }
    }
    return zipped.toByteArray();
  }

  /** The dump of a gzip body that lies: it lands no end, and says which page and why. */
  private void assertLyingGzipEndsNoDump(byte[] body, String why) throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(200, "application/x-ndjson", body, "Content-Encoding", "gzip"));
    RecordingSink sink = new RecordingSink();
    String failure;
    try {
      RestFixture.read(
          dump("{decoder: ndjson}"), "assets", Optional.empty(), Clock.systemUTC(), sink);
      failure = sink.abortReason().orElseThrow();
    } catch (Exception e) {
      failure = e.getMessage();
    }
    assertThat(sink.shape()).doesNotContain("end");
    assertThat(failure).contains("lab.assets").contains("/v1/assets");
    assertThat(failure).endsWith("/v1/assets: " + why);
  }

  @Test
  void aGzipBodyCutShortLandsNoEndAndNamesThePage() throws Exception {
    byte[] whole = gzippedLines();
    assertLyingGzipEndsNoDump(
        Arrays.copyOf(whole, whole.length / 2), "the gzip body ends early (cut short)");
  }

  @Test
  void aGzipBodyWhoseTrailerLiesAboutItsLengthLandsNoEnd() throws Exception {
    byte[] body = gzippedLines();
    body[body.length - 1] ^= 0x01; // ISIZE, the uncompressed length mod 2^32, no longer matches
    assertLyingGzipEndsNoDump(body, "the gzip body is corrupt (Corrupt GZIP trailer)");
  }

  @Test
  void aGzipBodyWhoseChecksumLiesLandsNoEnd() throws Exception {
    byte[] body = gzippedLines();
    body[body.length - 8] ^= 0x01; // the CRC-32 of the uncompressed bytes
    assertLyingGzipEndsNoDump(body, "the gzip body is corrupt (Corrupt GZIP trailer)");
  }

  @Test
  void anEmptyAnswerLandsBeginAndEnd() throws Exception {
    server.on("/v1/assets", ok("[]"));

    RecordingSink sink = RestFixture.read(dump("{decoder: json_array}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "end");
  }

  @Test
  void aBodyThatIsNotWhatTheDecoderReadsAbortsTheDumpNamingThePage() throws Exception {
    server.on("/v1/assets", ok("{\"id\":1}\nnot json\n"));

    RecordingSink sink = RestFixture.read(dump("{decoder: ndjson}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue("lab.assets: GET " + server.url() + "/v1/assets: line 2 is not valid JSON");
  }

  @Test
  void anNdjsonLineThatIsNoObjectOrTwoValuesAbortsTheDumpNamingItsLine() throws Exception {
    // The scanner accepts both lines as JSON; what it does not decide goes to the parser, whose
    // message names the line.
    Map<String, String> bodies =
        Map.of(
            "{\"id\":1}\n [1,2]\n", "line 2 is not a JSON object",
            "{\"id\":1}\n\n{\"id\":2} {\"id\":3}\n", "line 3 holds more than one JSON value",
            "{\"id\":1}\n{\"id\":\"\u0001\"}\n", "line 2 is not valid JSON");
    for (Map.Entry<String, String> body : bodies.entrySet()) {
      server.on("/v1/assets", ok(body.getKey()));

      RecordingSink sink = RestFixture.read(dump("{decoder: ndjson}"), "assets");

      assertThat(sink.shape()).as(body.getKey()).containsExactly("begin", "row", "abort");
      assertThat(sink.abortReason())
          .hasValue("lab.assets: GET " + server.url() + "/v1/assets: " + body.getValue());
    }
  }

  @Test
  void ndjsonLinesWithWhitespaceAroundTheirObjectLandAsTheyCame() throws Exception {
    server.on("/v1/assets", ok(" \t{\"id\":1} \r\n{ \"id\" : [2, {\"n\": null}] }\n"));

    RecordingSink sink = RestFixture.read(dump("{decoder: ndjson}"), "assets");

    assertThat(sink.records()).containsExactly(" \t{\"id\":1}", "{ \"id\" : [2, {\"n\": null}] }");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void aHeldPageLongerThanMaxPageBytesAbortsTheDump() throws Exception {
    server.on("/v1/assets", ok("{\"items\":[" + "{\"id\":1},".repeat(200) + "{\"id\":2}]}"));

    // document holds its page; json_at streams its rows (JsonAtStreamingTest).
    RecordingSink sink = RestFixture.read(boundedDump("{decoder: document}"), "assets");

    assertThat(sink.shape()).isEqualTo(List.of("begin", "abort"));
    assertThat(sink.abortReason().orElseThrow()).contains("longer than max_page_bytes 1024");
  }

  @Test
  void linesAreRowsOfTheirTextWithoutTheLineBreak() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200,
            "text/plain",
            "golang.org/x/net v0.1.0\r\n\n  indented \t\n\"quoted\" \u00e9\nlast"
                .getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: lines}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"line\":\"golang.org/x/net v0.1.0\"}",
            "{\"line\":\"  indented \\t\"}",
            "{\"line\":\"\\\"quoted\\\" \u00e9\"}",
            "{\"line\":\"last\"}");
  }

  @Test
  void linesGoUnderTheFieldNamed() throws Exception {
    server.on(
        "/v1/assets", ApiServer.send(200, "text/plain", "a\nb\n".getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: lines, field: text}"), "assets");

    assertThat(sink.records()).containsExactly("{\"text\":\"a\"}", "{\"text\":\"b\"}");
  }

  @Test
  void aLineThatIsNotUtf8FailsThePageNamingIt() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200, "text/plain", new byte[] {'o', 'k', '\n', 'b', (byte) 0xC3, '(', '\n'}));

    RecordingSink sink = RestFixture.read(dump("{decoder: lines}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets: line 2 is not UTF-8 text (decoder lines)");
  }

  @Test
  void aLineLongerThanMaxPageBytesFailsThePage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200, "text/plain", ("x".repeat(2000) + "\n").getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(boundedDump("{decoder: lines}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("line 1 is longer than max_page_bytes 1024");
  }

  @Test
  void jsonReadsAnArrayAsItsElements() throws Exception {
    server.on("/v1/assets", ok(" [{\"id\":1,\"n\":0.10000000000000000555},{\"id\":2}] "));

    RecordingSink sink = RestFixture.read(dump("{decoder: json}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly("{\"id\":1,\"n\":0.10000000000000000555}", "{\"id\":2}");
  }

  @Test
  void jsonReadsAnObjectAsOneRow() throws Exception {
    server.on("/v1/assets", ok("{\"id\":12345678901234567890,\"tags\":[1,2]}"));

    RecordingSink sink = RestFixture.read(dump("{decoder: json}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":12345678901234567890,\"tags\":[1,2]}");
  }

  @Test
  void jsonWrapsAScalarBodyOnlyWhenToldTo() throws Exception {
    server.on("/v1/assets", ok("\"v1.2.3\""));

    RecordingSink refused = RestFixture.read(dump("{decoder: json}"), "assets");
    RecordingSink wrapped =
        RestFixture.read(dump("{decoder: json, builder: wrap_non_object}"), "assets");

    assertThat(refused.shape()).containsExactly("begin", "abort");
    assertThat(refused.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets: the body is neither a JSON array nor an object (decoder json); set"
                + " rows.builder: wrap_non_object to wrap it");
    assertThat(wrapped.records()).containsExactly("{\"value\":\"v1.2.3\"}");
  }

  @Test
  void jsonFailsOnTextAfterTheValueAndOnAnEmptyBody() throws Exception {
    server.on("/v1/assets", ok("{\"id\":1} {\"id\":2}"), ok(""));

    RecordingSink twoValues = RestFixture.read(dump("{decoder: json}"), "assets");
    RecordingSink empty = RestFixture.read(dump("{decoder: json}"), "assets");

    assertThat(twoValues.shape()).containsExactly("begin", "row", "abort");
    assertThat(twoValues.abortReason().orElseThrow()).endsWith(": text follows the JSON value");
    assertThat(empty.shape()).containsExactly("begin", "abort");
    assertThat(empty.abortReason().orElseThrow())
        .endsWith(": the body is empty, not JSON (decoder json)");
  }

  @Test
  void jsonBoundsAnObjectBodyByMaxPageBytes() throws Exception {
    server.on("/v1/assets", ok("{\"items\":[" + "{\"id\":1},".repeat(200) + "{\"id\":2}]}"));

    RecordingSink sink = RestFixture.read(boundedDump("{decoder: json}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(": the body is longer than max_page_bytes 1024");
  }

  @Test
  void aCsvHeaderAfterAByteOrderMarkNamesTheFirstField() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200,
            "text/csv",
            "\uFEFF\"EVENT_TYPE\",\"TIMESTAMP\"\n\"Login\",\"20261202080000.123\"\n"
                .getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.records())
        .containsExactly("{\"EVENT_TYPE\":\"Login\",\"TIMESTAMP\":\"20261202080000.123\"}");
  }

  @Test
  void aCsvHeaderNamingAFieldTwiceFailsThePage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(200, "text/csv", "id,id\n1,2\n".getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET " + server.url() + "/v1/assets: the CSV header names a field twice");
  }

  @Test
  void csvThatIsNotUtf8FailsThePage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(200, "text/csv", new byte[] {'i', 'd', '\n', (byte) 0xE9, '\n'}));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue("lab.assets: GET " + server.url() + "/v1/assets: the CSV body is not UTF-8 text");
  }

  @Test
  void csvTextAfterAClosingQuoteFailsThePage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(
            200, "text/csv", "id,name\n1,\"web\"east\n".getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(": a CSV field has text after its closing quote");
  }

  @Test
  void csvRecordsWithFewerFieldsThanTheHeaderFailThePage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.send(200, "text/csv", "id,name\n1,a\n2\n".getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = RestFixture.read(dump("{decoder: csv}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(": CSV record 2 has 1 fields, the header 2");
  }

  @Test
  void aDocumentWithTextAfterItsValueFailsThePage() throws Exception {
    server.on("/v1/assets", ok("{\"id\":1} {\"id\":2}"));

    RecordingSink sink = RestFixture.read(dump("{decoder: document}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets: the body is not valid JSON (at byte 9)");
  }
}
