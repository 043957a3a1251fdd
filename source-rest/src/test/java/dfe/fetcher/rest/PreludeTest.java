package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code prelude}: requests sent once per tick, before the first page. */
class PreludeTest {

  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    server.on("/content", ok("[{\"id\":1}]"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(String prelude) {
    return RestFixture.connection(
        """
        topic: lab
        vars: {tenant: t-1, content_type: Audit.General}
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
            - unit: audit
              shape: tail
              path: /content
              query: {startTime: "{{ window.start }}", endTime: "{{ window.end }}"}
              rows: {decoder: json_array}
              window: {format: rfc3339_secs, lookback: 2h, step: 1h}
        %s
        """
            .formatted(server.url(), prelude.indent(6)));
  }

  private static RecordingSink tick(RestConnection connection) throws Exception {
    return RestFixture.read(connection, "audit", Optional.empty(), new MutableClock(NOW));
  }

  @Test
  void aPreludeIsSentOnceBeforeTheFirstPageOfTheTickAsAPostRenderedFromVars() throws Exception {
    server.on("/t-1/subscriptions/start", ok("{\"status\":\"enabled\"}"));

    RecordingSink sink =
        tick(
            connection(
                """
                prelude:
                  - path: "/{{ vars.tenant }}/subscriptions/start"
                    query: {contentType: "{{ vars.content_type }}"}
                    body: {webhook: null, tenant: "{{ vars.tenant }}"}"""));

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":1}");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
    assertThat(server.requests())
        .extracting(seen -> seen.method() + " " + seen.pathAndQuery().replaceAll("\\?.*", ""))
        .containsExactly("POST /t-1/subscriptions/start", "GET /content", "GET /content");
    assertThat(server.requests().get(0).pathAndQuery())
        .isEqualTo("/t-1/subscriptions/start?contentType=Audit.General");
    assertThat(server.requests().get(0).body()).isEqualTo("{\"webhook\":null,\"tenant\":\"t-1\"}");
  }

  @Test
  void aStatusItsErrorsIgnoreLetsTheTickGoOn() throws Exception {
    server.on("/t-1/subscriptions/start", json(400, "{\"error\":{\"code\":\"AF20024\"}}"));

    RecordingSink sink =
        tick(
            connection(
                """
                prelude:
                  - path: "/{{ vars.tenant }}/subscriptions/start"
                    errors: {ignore_status: [400]}"""));

    assertThat(sink.records()).hasSize(2);
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void aPreludeThatFailsFailsTheTickBeforeAnyPage() throws Exception {
    server.on("/t-1/subscriptions/start", json(403, "{\"error\":\"forbidden\"}"));
    RestConnection connection =
        connection(
            """
            prelude:
              - path: "/{{ vars.tenant }}/subscriptions/start"
                errors: {ignore_status: [400]}""");
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () -> {
              try (OpenConnection open =
                  RestFixture.open(connection, new MutableClock(NOW), SourceMetrics.NONE)) {
                open.source("audit").read(Optional.empty(), sink, new Cancellation());
              }
            })
        .hasMessageStartingWith(
            "lab.audit: POST " + server.url() + "/t-1/subscriptions/start answered 403");
    assertThat(sink.events).isEmpty();
    assertThat(server.paths()).containsExactly("/t-1/subscriptions/start");
  }

  @Test
  void aDumpWhosePreludeFailsIsAborted() throws Exception {
    server.on("/start", json(500, "{}"));

    RecordingSink sink =
        RestFixture.read(
            RestFixture.connection(
                """
                topic: lab
                profile:
                  base_url: "%s"
                  retry: {max_retries: 0}
                  endpoints:
                    - unit: things
                      shape: dump
                      path: /content
                      rows: {decoder: json_array}
                      prelude: [{path: /start, method: GET}]
                """
                    .formatted(server.url())),
            "things");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow()).startsWith("lab.things: GET " + server.url());
    assertThat(server.paths()).containsExactly("/start");
  }

  @Test
  void anEndpointsEmptyPreludeDropsTheDefaults() throws Exception {
    server.on("/start", ok("{}"));

    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              defaults:
                rows: {decoder: json_array}
                prelude: [{path: /start}]
              endpoints:
                - {unit: with, shape: dump, path: /content}
                - {unit: without, shape: dump, path: /content, prelude: []}
            """
                .formatted(server.url()));
    RestFixture.read(connection, "with");
    RestFixture.read(connection, "without");

    assertThat(server.paths()).containsExactly("/start", "/content", "/content");
  }

  @Test
  void aPreludeReadsVarsOnlyAndItsMistakesAreReportedAtTheirPlaces() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: audit
                      shape: tail
                      path: /content
                      query: {since: "{{ window.start }}"}
                      rows: {decoder: json_array}
                      window: {format: rfc3339_secs, lookback: 1h}
                      prelude:
                        - {path: "/start/{{ window.start }}"}
                        - {method: PUT, path: /s, rows: {decoder: json_array}}
                        - {}
                """))
        .containsExactly(
            "config.yaml:12:18: sources.rest.lab.profile.endpoints[0].prelude[0].path: reads {{"
                + " window.start }}, which a prelude does not read: it is sent once per tick,"
                + " before any window",
            "config.yaml:13:20: sources.rest.lab.profile.endpoints[0].prelude[1].method: unknown"
                + " method 'PUT'; one of GET, POST",
            "config.yaml:13:35: sources.rest.lab.profile.endpoints[0].prelude[1].rows: unknown"
                + " key; allowed keys: method, path, query, headers, body, errors",
            "config.yaml:14:11: sources.rest.lab.profile.endpoints[0].prelude[2].path: is"
                + " required");
  }
}
