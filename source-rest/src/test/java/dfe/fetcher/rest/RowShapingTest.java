package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code rows.quoted} and {@code rows.add_fields} against a local server: the exact rows landed,
 * each bad answer failing the dump, and each setting that cannot work refused at load naming its
 * path.
 */
class RowShapingTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String profile(String rows) {
    return """
        topic: lab
        vars: {host: "%s", crate: serde}
        profile:
          base_url: "{{ vars.host }}"
          endpoints:
            - unit: assets
              shape: dump
              path: /v1/assets
              rows: %s
        """
        .formatted(server.url(), rows);
  }

  private RecordingSink read(String rows, String body) throws Exception {
    server.on("/v1/assets", ok(body));
    return RestFixture.read(RestFixture.connection(profile(rows)), "assets");
  }

  @Test
  void quotedRowsAreUnquotedIntoTheObjectsTheyHold() throws Exception {
    // AWS Config's SelectResourceConfig: "Results": ["{\"resourceId\":...}", ...]
    RecordingSink sink =
        read(
            "{decoder: json_at, at: /Results, quoted: true}",
            """
            {"Results":["{\\"resourceId\\":\\"i-1\\",\\"n\\":0.10000000000000000555}",
                        " {\\"resourceId\\":\\"i-2\\",\\"big\\":12345678901234567890} "],
             "NextToken":null}
            """);

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"resourceId\":\"i-1\",\"n\":0.10000000000000000555}",
            "{\"resourceId\":\"i-2\",\"big\":12345678901234567890}");
  }

  @Test
  void aQuotedRowThatIsNotValidJsonFailsThePageNamingTheRow() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: json_at, at: /Results, quoted: true}",
            "{\"Results\":[\"{\\\"a\\\":1}\",\"{\\\"a\\\":\"]}");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets: row 1: the string does not hold one JSON value (rows.quoted: true)");
  }

  @Test
  void aQuotedRowWithTextAfterItsValueFailsThePage() throws Exception {
    RecordingSink sink =
        read("{decoder: json_array, quoted: true}", "[\"{\\\"a\\\":1} {\\\"b\\\":2}\"]");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: the string does not hold one JSON value (rows.quoted: true)");
  }

  @Test
  void aQuotedRowThatIsNotAStringFailsThePage() throws Exception {
    RecordingSink sink = read("{decoder: json_array, quoted: true}", "[{\"a\":1}]");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0 is not a string but a JSON object (rows.quoted: true)");
  }

  @Test
  void aQuotedRowHoldingANonObjectFailsUnlessWrapped() throws Exception {
    RecordingSink failed = read("{decoder: json_array, quoted: true}", "[\"42\"]");

    assertThat(failed.shape()).containsExactly("begin", "abort");
    assertThat(failed.abortReason().orElseThrow())
        .endsWith(
            "row 0 is a number, not a JSON object; set rows.builder: wrap_non_object to wrap it");

    RecordingSink wrapped =
        read("{decoder: json_array, quoted: true, builder: wrap_non_object}", "[\"42.0\"]");

    assertThat(wrapped.records()).containsExactly("{\"value\":42.0}");
  }

  @Test
  void addedFieldsAreRenderedAndAddedToEveryRow() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: document, add_fields: {_dfe_fetcher_crate: \"{{ vars.crate }}\","
                + " unit: \"{{ unit.name }}\", schema: 2, exact: 0.10000000000000000555,"
                + " origin: {registry: crates.io, name: \"crate-{{ vars.crate }}\", tags: [a, 1]}}}",
            "{\"crate\":{\"id\":\"serde\",\"downloads\":12345678901234567890}}");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"crate\":{\"id\":\"serde\",\"downloads\":12345678901234567890},"
                + "\"_dfe_fetcher_crate\":\"serde\",\"unit\":\"assets\",\"schema\":2,"
                + "\"exact\":0.10000000000000000555,"
                + "\"origin\":{\"registry\":\"crates.io\",\"name\":\"crate-serde\","
                + "\"tags\":[\"a\",1]}}");
  }

  @Test
  void aRowThatHasAnAddedFieldAlreadyFailsThePage() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: json_array, add_fields: {source: api}}",
            "[{\"id\":1},{\"id\":2,\"source\":\"mine\"}]");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.records()).containsExactly("{\"id\":1,\"source\":\"api\"}");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 1 has a field source already (rows.add_fields)");
  }

  @Test
  void addedFieldsFollowABuilder() throws Exception {
    RecordingSink sink =
        read(
            "{decoder: json_at, at: /tables, builder: columnar_table, add_fields: {ws: w1}}",
            "{\"tables\":[{\"columns\":[{\"name\":\"a\"}],\"rows\":[[1],[2]]}]}");

    assertThat(sink.records())
        .containsExactly("{\"a\":1,\"ws\":\"w1\"}", "{\"a\":2,\"ws\":\"w1\"}");
  }

  @Test
  void aBuiltRowLongerThanMaxPageBytesFailsThePage() throws Exception {
    server.on("/v1/assets", ok("[{\"id\":1}]"));
    RecordingSink sink =
        RestFixture.read(
            RestFixture.connection(
                profile("{decoder: json_array, add_fields: {note: " + "n".repeat(1100) + "}}")
                    .replace("rows: {", "max_page_bytes: 1024\n      rows: {")),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("row 0: a row built from it is longer than max_page_bytes 1024");
  }

  @Test
  void addedFieldsOfATailEndpointReadTheWindowTheyWereLandedIn() throws Exception {
    server.on("/v1/events", ok("{\"data\":[{\"id\":1}]}"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              endpoints:
                - unit: events
                  shape: tail
                  path: /v1/events
                  query: {since: "{{ window.start }}"}
                  rows:
                    decoder: json_at
                    at: /data
                    add_fields: {window: {from: "{{ window.start }}", to: "{{ window.end }}"}}
                  window: {format: rfc3339_secs, lookback: 1h}
            """
                .formatted(server.url()));

    RecordingSink sink =
        RestFixture.read(
            connection,
            "events",
            Optional.empty(),
            new MutableClock(Instant.parse("2026-12-01T08:00:00.250Z")));

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":1,\"window\":{\"from\":\"2026-12-01T07:00:00Z\","
                + "\"to\":\"2026-12-01T08:00:00Z\"}}");
  }

  private static String at(String rows) {
    return """
        topic: lab
        profile:
          base_url: "http://127.0.0.1:1"
          endpoints:
            - unit: assets
              shape: dump
              path: /v1/assets
              rows: %s
        """
        .formatted(rows);
  }

  @Test
  void anUnknownBuilderIsRefusedNamingTheBuilders() {
    assertThat(RestFixture.problems(at("{decoder: json_array, builder: columnar}")))
        .containsExactly(
            "config.yaml:8:44: sources.rest.lab.profile.endpoints[0].rows.builder: unknown"
                + " builder 'columnar'; one of columnar_table, cloudwatch_metrics,"
                + " pubsub_message, wrap_non_object");
  }

  @Test
  void quotedAndABuilderOnADecoderOfStringsAreRefused() {
    assertThat(RestFixture.problems(at("{decoder: csv, quoted: true, builder: wrap_non_object}")))
        .containsExactly(
            "config.yaml:8:36: sources.rest.lab.profile.endpoints[0].rows.quoted: applies to"
                + " decoders that read JSON values, not csv",
            "config.yaml:8:51: sources.rest.lab.profile.endpoints[0].rows.builder: applies to"
                + " decoders that read JSON values; csv rows are objects of strings already");
  }

  @Test
  void aFieldWithoutAWrapIsRefused() {
    assertThat(RestFixture.problems(at("{decoder: json_array, field: payload}")))
        .containsExactly(
            "config.yaml:8:42: sources.rest.lab.profile.endpoints[0].rows.field: applies to"
                + " builder wrap_non_object and decoder lines only");
    assertThat(RestFixture.problems(at("{decoder: lines, field: text}"))).isEmpty();
    assertThat(
            RestFixture.problems(
                at("{decoder: json_array, builder: wrap_non_object, field: payload}")))
        .isEmpty();
  }

  @Test
  void addFieldsThatAreNotAMappingOrReadAnUndefinedVariableAreRefused() {
    assertThat(RestFixture.problems(at("{decoder: json_array, add_fields: [a]}")))
        .containsExactly(
            "config.yaml:8:47: sources.rest.lab.profile.endpoints[0].rows.add_fields: must be a"
                + " mapping of field names to values (strings are templates), not a list");
    assertThat(
            RestFixture.problems(
                at("{decoder: json_array, add_fields: {crate: \"{{ vars.crate }}\"}}")))
        .containsExactly(
            "config.yaml:8:55: sources.rest.lab.profile.endpoints[0].rows.add_fields.crate:"
                + " reads {{ vars.crate }}, which is not defined; set crate in"
                + " sources.rest.lab.vars");
  }

  @Test
  void addFieldsReadingTheWindowInADumpAreRefused() {
    assertThat(
            RestFixture.problems(
                at("{decoder: json_array, add_fields: {since: \"{{ window.start }}\"}}")))
        .containsExactly(
            "config.yaml:8:55: sources.rest.lab.profile.endpoints[0].rows.add_fields.since:"
                + " reads {{ window.start }}, which only a tail endpoint has");
  }
}
