package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each row builder against a local server answering in the provider's documented shape: the exact
 * rows landed, and each bad answer failing the dump (no {@code end}) without a wrong row.
 */
class RowBuildersTest {

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
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /v1/query, rows: %s}
        """
            .formatted(server.url(), rows));
  }

  private RecordingSink read(String rows, String body) throws Exception {
    server.on("/v1/query", ok(body));
    return RestFixture.read(dump(rows), "assets");
  }

  private static final String LOG_ANALYTICS =
      "{decoder: json_at, at: /tables, builder: columnar_table}";

  @Test
  void aLogAnalyticsTableBecomesOneObjectPerRowUnderItsColumnNames() throws Exception {
    RecordingSink sink =
        read(
            LOG_ANALYTICS,
            """
            {"tables":[{"name":"PrimaryResult",
              "columns":[{"name":"Category","type":"string"},{"name":"count_","type":"long"},
                         {"name":"avg_","type":"real"},{"name":"Props","type":"dynamic"}],
              "rows":[["Administrative",20839,0.10000000000000000555,"{\\"a\\":1}"],
                      ["Alert",12345678901234567890123,1.50,null]]}]}
            """);

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"Category\":\"Administrative\",\"count_\":20839,\"avg_\":0.10000000000000000555,"
                + "\"Props\":\"{\\\"a\\\":1}\"}",
            "{\"Category\":\"Alert\",\"count_\":12345678901234567890123,\"avg_\":1.50,"
                + "\"Props\":null}");
  }

  @Test
  void aTableRowWithMoreCellsThanColumnsFailsThePageWithoutARow() throws Exception {
    RecordingSink sink =
        read(
            LOG_ANALYTICS,
            """
            {"tables":[{"name":"PrimaryResult","columns":[{"name":"a","type":"long"}],
              "rows":[[1],[2,3]]}]}
            """);

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/query: row 0: rows/1 of the table has 2 cells for 1 columns (builder"
                + " columnar_table)");
  }

  @Test
  void aTableWhoseColumnsShareANameFailsThePage() throws Exception {
    RecordingSink sink =
        read(
            LOG_ANALYTICS,
            "{\"tables\":[{\"columns\":[{\"name\":\"a\"},{\"name\":\"a\"}],\"rows\":[[1,2]]}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "row 0: columns/1 of the table has the name of an earlier column (builder"
                + " columnar_table)");
  }

  @Test
  void aTableWithoutRowsFailsThePage() throws Exception {
    RecordingSink sink = read(LOG_ANALYTICS, "{\"tables\":[{\"columns\":[{\"name\":\"a\"}]}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: the table has no rows array (builder columnar_table)");
  }

  @Test
  void aTableLongerThanMaxPageBytesFailsBeforeItIsHeldOrBuilt() throws Exception {
    server.on(
        "/v1/query",
        ok(
            "{\"tables\":[{\"columns\":[{\"name\":\"a\"}],\"rows\":["
                + "[1],".repeat(400)
                + "[2]]}]}"));
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
                      path: /v1/query
                      rows: %s
                      max_page_bytes: 1024
                """
                    .formatted(server.url(), LOG_ANALYTICS)),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/query: /tables/0 is longer than max_page_bytes 1024");
  }

  private static final String METRICS =
      "{decoder: json_at, at: /MetricDataResults, builder: cloudwatch_metrics}";

  @Test
  void metricDataResultsBecomeOneRowPerDatapoint() throws Exception {
    RecordingSink sink =
        read(
            METRICS,
            """
            {"MetricDataResults":[
               {"Id":"m1","Label":"CPUUtilization","StatusCode":"Complete",
                "Timestamps":[1733130000,1733129700],"Values":[12.5,0.10000000000000000555],
                "Messages":[]},
               {"Id":"m2","StatusCode":"Complete","Timestamps":[],"Values":[]},
               {"Id":"m3","Label":"Errors","StatusCode":"PartialData",
                "Timestamps":["2026-12-02T08:00:00Z"],"Values":[3]}],
             "Messages":[]}
            """);

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"Id\":\"m1\",\"Label\":\"CPUUtilization\",\"StatusCode\":\"Complete\","
                + "\"Timestamp\":1733130000,\"Value\":12.5}",
            "{\"Id\":\"m1\",\"Label\":\"CPUUtilization\",\"StatusCode\":\"Complete\","
                + "\"Timestamp\":1733129700,\"Value\":0.10000000000000000555}",
            "{\"Id\":\"m3\",\"Label\":\"Errors\",\"StatusCode\":\"PartialData\","
                + "\"Timestamp\":\"2026-12-02T08:00:00Z\",\"Value\":3}");
  }

  @Test
  void valuesAndTimestampsOfDifferentLengthsFailThePageWithoutARow() throws Exception {
    RecordingSink sink =
        read(
            METRICS,
            "{\"MetricDataResults\":[{\"Id\":\"m1\",\"Timestamps\":[1,2,3],\"Values\":[1,2]}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/query: row 0: the result has 3 Timestamps and 2 Values (builder"
                + " cloudwatch_metrics)");
  }

  @Test
  void aValueThatIsNotANumberFailsThePage() throws Exception {
    RecordingSink sink =
        read(
            METRICS,
            "{\"MetricDataResults\":[{\"Id\":\"m1\",\"Timestamps\":[1],\"Values\":[\"NaN\"]}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: Values/0 is not a number (builder cloudwatch_metrics)");
  }

  @Test
  void aResultWithoutAnIdFailsThePage() throws Exception {
    RecordingSink sink =
        read(METRICS, "{\"MetricDataResults\":[{\"Timestamps\":[1],\"Values\":[2]}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: the result has no Id (builder cloudwatch_metrics)");
  }

  private static final String PUBSUB =
      "{decoder: json_at, at: /receivedMessages, allow_missing: true, builder: pubsub_message}";

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aPubSubMessageIsItsDecodedDataWithTheEnvelopeBeside() throws Exception {
    RecordingSink sink =
        read(
            PUBSUB,
            """
            {"receivedMessages":[
              {"ackId":"ack-1","deliveryAttempt":2,
               "message":{"data":"%s","attributes":{"origin":"eu"},"messageId":"101",
                          "publishTime":"2026-12-02T08:00:00.123456789Z","orderingKey":"k"}},
              {"ackId":"ack-2","message":{"data":"%s","messageId":"102",
                          "publishTime":"2026-12-02T08:00:01Z"}},
              {"ackId":"ack-3","message":{"data":"%s","messageId":"103",
                          "publishTime":"2026-12-02T08:00:02Z"}},
              {"ackId":"ack-4","message":{"attributes":{"only":"attrs"},"messageId":"104",
                          "publishTime":"2026-12-02T08:00:03Z"}}]}
            """
                .formatted(
                    base64("{\"user\":\"ann\",\"amount\":12.50}"),
                    base64("[1,2]"),
                    base64("plain text, not JSON")));

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"user\":\"ann\",\"amount\":12.50,\"_dfe_fetcher_pubsub\":{\"ackId\":\"ack-1\","
                + "\"messageId\":\"101\",\"publishTime\":\"2026-12-02T08:00:00.123456789Z\","
                + "\"attributes\":{\"origin\":\"eu\"},\"orderingKey\":\"k\","
                + "\"deliveryAttempt\":2}}",
            "{\"payload\":[1,2],\"_dfe_fetcher_pubsub\":{\"ackId\":\"ack-2\","
                + "\"messageId\":\"102\",\"publishTime\":\"2026-12-02T08:00:01Z\"}}",
            "{\"payload\":\"plain text, not JSON\",\"_dfe_fetcher_pubsub\":{\"ackId\":\"ack-3\","
                + "\"messageId\":\"103\",\"publishTime\":\"2026-12-02T08:00:02Z\"}}",
            "{\"payload\":\"\",\"_dfe_fetcher_pubsub\":{\"ackId\":\"ack-4\","
                + "\"messageId\":\"104\",\"publishTime\":\"2026-12-02T08:00:03Z\","
                + "\"attributes\":{\"only\":\"attrs\"}}}");
  }

  @Test
  void urlSafeBase64IsReadAsTheProtobufJsonMappingAllows() throws Exception {
    // The JSON string ">>>???" is Ij4-Pj8_PyI in the URL-safe alphabet, without padding.
    String data = "Ij4-Pj8_PyI";
    RecordingSink sink =
        read(
            PUBSUB,
            "{\"receivedMessages\":[{\"ackId\":\"a\",\"message\":{\"data\":\"%s\",\"messageId\":\"1\"}}]}"
                .formatted(data));

    assertThat(sink.records())
        .containsExactly(
            "{\"payload\":\">>>???\",\"_dfe_fetcher_pubsub\":{\"ackId\":\"a\","
                + "\"messageId\":\"1\"}}");
  }

  @Test
  void base64ThatIsNotFailsThePageWithoutARow() throws Exception {
    RecordingSink sink =
        read(
            PUBSUB,
            """
            {"receivedMessages":[
              {"ackId":"a","message":{"data":"%s","messageId":"1"}},
              {"ackId":"b","message":{"data":"not base64!","messageId":"2"}}]}
            """
                .formatted(base64("{\"ok\":true}")));

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/query: row 1: message.data is not valid base64 (builder pubsub_message)");
  }

  @Test
  void dataThatIsNotUtf8FailsThePage() throws Exception {
    String data = Base64.getEncoder().encodeToString(new byte[] {(byte) 0xC3, (byte) 0x28});
    RecordingSink sink =
        read(
            PUBSUB,
            "{\"receivedMessages\":[{\"ackId\":\"a\",\"message\":{\"data\":\"%s\",\"messageId\":\"1\"}}]}"
                .formatted(data));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: message.data is not UTF-8 text (builder pubsub_message)");
  }

  @Test
  void aPayloadThatHasTheEnvelopeFieldAlreadyFailsThePage() throws Exception {
    RecordingSink sink =
        read(
            PUBSUB,
            "{\"receivedMessages\":[{\"ackId\":\"a\",\"message\":{\"data\":\"%s\",\"messageId\":\"1\"}}]}"
                .formatted(base64("{\"_dfe_fetcher_pubsub\":1}")));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "row 0: the message's data has a field _dfe_fetcher_pubsub (builder pubsub_message)");
  }

  @Test
  void aMessageWithoutAnAckIdFailsThePage() throws Exception {
    RecordingSink sink =
        read(
            PUBSUB,
            "{\"receivedMessages\":[{\"message\":{\"data\":\"e30=\",\"messageId\":\"1\"}}]}");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0 has no ackId (builder pubsub_message)");
  }

  @Test
  void anEmptyPullLandsAnEmptyDump() throws Exception {
    // Pub/Sub: "For JSON, the response can be entirely empty."
    RecordingSink sink = read(PUBSUB, "{}");

    assertThat(sink.shape()).containsExactly("begin", "end");
  }

  @Test
  void wrapNonObjectPutsEachOtherValueUnderValueAndKeepsObjects() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: json_array, builder: wrap_non_object}",
            "[{\"id\":1},\"text\",2.50,[1],null,true]");

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":1}",
            "{\"value\":\"text\"}",
            "{\"value\":2.50}",
            "{\"value\":[1]}",
            "{\"value\":null}",
            "{\"value\":true}");
  }

  @Test
  void wrapNonObjectTakesTheFieldNamed() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: ndjson, builder: wrap_non_object, field: payload}",
            "{\"id\":1}\n\"text\"\n12345678901234567890\n");

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":1}", "{\"payload\":\"text\"}", "{\"payload\":12345678901234567890}");
  }
}
