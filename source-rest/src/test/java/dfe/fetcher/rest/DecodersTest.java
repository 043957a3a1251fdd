package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
    return RestFixture.connection(
        """
        topic: lab
        vars: {host: "%s"}
        profile:
          base_url: "{{ vars.host }}/v1"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: %s}
        """
            .formatted(server.url(), rows));
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
  void aHeldPageLongerThanMaxPageBytesAbortsTheDump() throws Exception {
    server.on("/v1/assets", ok("{\"items\":[" + "{\"id\":1},".repeat(200) + "{\"id\":2}]}"));

    // document holds its page; json_at streams its rows (JsonAtStreamingTest).
    RecordingSink sink =
        RestFixture.read(
            RestFixture.connection(
                """
                topic: lab
                profile:
                  base_url: "%s"
                  endpoints:
                    - unit: assets
                      shape: dump
                      path: /v1/assets
                      rows: {decoder: document}
                      max_page_bytes: 1024
                """
                    .formatted(server.url())),
            "assets");

    assertThat(sink.shape()).isEqualTo(List.of("begin", "abort"));
    assertThat(sink.abortReason().orElseThrow()).contains("longer than max_page_bytes 1024");
  }
}
