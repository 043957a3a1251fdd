package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.WindowMark;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** {@code construct.keyset}: one listing per key, the keys from a template or a first request. */
class KeysetTest {

  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

  @AutoClose private final ApiServer server = ApiServer.started();

  private RestConnection connection(String vars, String endpoint) {
    return RestFixture.connection(
        """
        topic: lab
        vars: %s
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
        %s
        """
            .formatted(vars, server.url(), endpoint.indent(4)));
  }

  @Test
  void keysFromAListTemplateGiveOneListingEachWithTheKeyInThePathAndTheRows() throws Exception {
    server.on("/api/v1/crates/serde", ok("{\"crate\":{\"id\":\"serde\"}}"));
    server.on("/api/v1/crates/tokio", ok("{\"crate\":{\"id\":\"tokio\"}}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{crates: \"serde,tokio\"}",
                """
                - unit: metadata
                  shape: dump
                  path: "/api/v1/crates/{{ key }}"
                  rows:
                    decoder: document
                    add_fields: {_dfe_fetcher_crate: "{{ key }}"}
                  construct:
                    keyset: {from: "{{ vars.crates.split(',') }}"}"""),
            "metadata");

    assertThat(sink.records())
        .containsExactly(
            "{\"crate\":{\"id\":\"serde\"},\"_dfe_fetcher_crate\":\"serde\"}",
            "{\"crate\":{\"id\":\"tokio\"},\"_dfe_fetcher_crate\":\"tokio\"}");
    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths()).containsExactly("/api/v1/crates/serde", "/api/v1/crates/tokio");
  }

  @Test
  void objectKeysFromAVariableHoldingAJsonArrayAreReadByField() throws Exception {
    server.on("/v1/workspaces/w1/query", ok("{\"tables\":[{\"n\":1}]}"));
    server.on("/v1/workspaces/w2/query", ok("{\"tables\":[{\"n\":2}]}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{queries: '[{\"workspace_id\": \"w1\", \"kql\": \"A | take 1\"},"
                    + " {\"workspace_id\": \"w2\", \"kql\": \"B\", \"limit\": 5, \"ratio\": 0.5,"
                    + " \"on\": true, \"none\": null, \"tags\": [\"a\", 1]}]'}",
                """
                - unit: logs
                  shape: dump
                  method: POST
                  path: "/v1/workspaces/{{ key.workspace_id }}/query"
                  body: {query: "{{ key.kql }}", whole: "{{ key }}"}
                  rows: {decoder: json_at, at: /tables}
                  construct:
                    keyset: {from: "{{ vars.queries }}"}"""),
            "logs");

    assertThat(sink.records()).containsExactly("{\"n\":1}", "{\"n\":2}");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::body)
        .containsExactly(
            "{\"query\":\"A | take 1\",\"whole\":{\"workspace_id\":\"w1\",\"kql\":\"A | take 1\"}}",
            "{\"query\":\"B\",\"whole\":{\"workspace_id\":\"w2\",\"kql\":\"B\",\"limit\":5,"
                + "\"ratio\":0.5,\"on\":true,\"none\":null,\"tags\":[\"a\",1]}}");
  }

  @Test
  void keysFromAFirstRequestAreReadAtKeysAtAndEachKeyIsListedWithItsOwnPages() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":[\"d1\",\"d2\"],\"nextToken\":null}"));
    server.on(
        "/detector/d1/findings",
        ApiServer.byQuery(
            java.util.Map.of(
                "", ok("{\"ids\":[{\"id\":\"a\"}],\"next\":\"p2\"}"),
                "token=p2", ok("{\"ids\":[{\"id\":\"b\"}],\"next\":null}"))));
    server.on("/detector/d2/findings", ok("{\"ids\":[{\"id\":\"c\"}],\"next\":null}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{}",
                """
                - unit: findings
                  shape: dump
                  path: "/detector/{{ key }}/findings"
                  rows: {decoder: json_at, at: /ids}
                  paginate: {type: cursor, from: "body:/next", into: "query:token"}
                  construct:
                    keyset:
                      request: {path: /detector}
                      keys_at: /detectorIds"""),
            "findings");

    assertThat(sink.records())
        .containsExactly("{\"id\":\"a\"}", "{\"id\":\"b\"}", "{\"id\":\"c\"}");
    assertThat(server.requests())
        .extracting(seen -> seen.method() + " " + seen.pathAndQuery())
        .containsExactly(
            "GET /detector",
            "GET /detector/d1/findings",
            "GET /detector/d1/findings?token=p2",
            "GET /detector/d2/findings");
  }

  @Test
  void anEmptyKeysetLandsAnEmptyDumpAndAdvancesAWindow() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":[]}"));
    String keyset =
        "  construct:\n"
            + "    keyset:\n"
            + "      request: {path: /detector}\n"
            + "      keys_at: /detectorIds\n";

    RecordingSink dump =
        RestFixture.read(
            connection(
                "{}",
                "- unit: findings\n  shape: dump\n  path: \"/d/{{ key }}\"\n"
                    + "  rows: {decoder: json_array}\n"
                    + keyset),
            "findings");
    RecordingSink tail =
        RestFixture.read(
            connection(
                "{}",
                "- unit: findings\n  shape: tail\n  path: \"/d/{{ key }}\"\n"
                    + "  query: {since: \"{{ window.start }}\"}\n"
                    + "  rows: {decoder: json_array}\n"
                    + "  window: {format: rfc3339_secs, lookback: 1h}\n"
                    + keyset),
            "findings",
            Optional.empty(),
            new MutableClock(NOW));

    assertThat(dump.shape()).containsExactly("begin", "end");
    assertThat(tail.shape()).containsExactly("advance");
    assertThat(tail.checkpoint()).contains(new WindowMark(NOW));
    assertThat(server.paths()).containsExactly("/detector", "/detector");
  }

  @Test
  void aKeyWhoseRequestFailsFailsTheWindowWhichCommitsNothing() throws Exception {
    server.on("/d/k1", ok("[{\"id\":1}]"));
    server.on("/d/k2", json(500, "{\"error\":\"down\"}"));
    RestConnection connection =
        connection(
            "{keys: \"k1,k2\"}",
            """
            - unit: events
              shape: tail
              path: "/d/{{ key }}"
              query: {since: "{{ window.start }}"}
              rows: {decoder: json_array}
              window: {format: rfc3339_secs, lookback: 1h}
              construct:
                keyset: {from: "{{ vars.keys.split(',') }}"}""");
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(
            () -> {
              try (var open =
                  RestFixture.open(
                      connection, new MutableClock(NOW), dfe.fetcher.source.SourceMetrics.NONE)) {
                open.source("events")
                    .read(Optional.empty(), sink, new dfe.fetcher.core.row.Cancellation());
              }
            })
        .hasMessageContaining("lab.events: GET " + server.url() + "/d/k2?since=")
        .hasMessageContaining("answered 500");
    assertThat(sink.records()).containsExactly("{\"id\":1}");
    assertThat(sink.checkpoint()).isEmpty();
  }

  @Test
  void aKeyCutShortByMaxPagesHalvesTheWindowAndEveryKeyIsReadAgain() throws Exception {
    server.on("/d/k1", ok("[{\"k\":1}]"));
    // k2 has a second page for any window longer than 30 minutes.
    server.on(
        "/d/k2",
        exchange -> {
          String query = exchange.getRequestURI().getQuery();
          Instant since = Instant.parse(query.replaceAll(".*since=([^&]*).*", "$1"));
          Instant until = Instant.parse(query.replaceAll(".*until=([^&]*).*", "$1"));
          boolean long_ = java.time.Duration.between(since, until).toMinutes() > 30;
          (long_
                  ? ok("[{\"k\":2}]", "Link", "<" + server.url() + "/d/k2/next>; rel=\"next\"")
                  : ok("[{\"k\":2}]"))
              .answer(exchange);
        });
    RestConnection connection =
        connection(
            "{keys: \"k1,k2\"}",
            """
            - unit: events
              shape: tail
              path: "/d/{{ key }}"
              query: {since: "{{ window.start }}", until: "{{ window.end }}"}
              rows: {decoder: json_array}
              paginate: {type: link_header}
              max_pages: 1
              window: {format: rfc3339_secs, lookback: 1h}
              construct:
                keyset: {from: "{{ vars.keys.split(',') }}"}""");

    RecordingSink sink =
        RestFixture.read(connection, "events", Optional.empty(), new MutableClock(NOW));

    assertThat(server.paths())
        .containsExactly(
            "/d/k1?since=2026-12-01T08%3A00%3A00Z&until=2026-12-01T09%3A00%3A00Z",
            "/d/k2?since=2026-12-01T08%3A00%3A00Z&until=2026-12-01T09%3A00%3A00Z",
            "/d/k1?since=2026-12-01T08%3A00%3A00Z&until=2026-12-01T08%3A30%3A00Z",
            "/d/k2?since=2026-12-01T08%3A00%3A00Z&until=2026-12-01T08%3A30%3A00Z",
            "/d/k1?since=2026-12-01T08%3A30%3A00Z&until=2026-12-01T09%3A00%3A00Z",
            "/d/k2?since=2026-12-01T08%3A30%3A00Z&until=2026-12-01T09%3A00%3A00Z");
    assertThat(sink.shape())
        .containsExactly("row", "row", "row", "row", "advance", "row", "row", "advance");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void aKeyWhoseRequestFailsAbortsTheDump() throws Exception {
    server.on("/d/k1", ok("[{\"id\":1}]"));
    server.on("/d/k2", json(500, "{}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{keys: \"k1,k2\"}",
                """
                - unit: things
                  shape: dump
                  path: "/d/{{ key }}"
                  rows: {decoder: json_array}
                  construct:
                    keyset: {from: "{{ vars.keys.split(',') }}"}"""),
            "things");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow()).contains("/d/k2", "answered 500");
  }

  @Test
  void aYamlListOfKeysMayHoldTemplatesAndAKeyAnsweringAnIgnoredStatusIsNoRows() throws Exception {
    server.on("/pypi/requests/json", ok("{\"info\":{\"name\":\"requests\"}}"));
    server.on("/pypi/gone/json", json(404, "{\"message\":\"Not Found\"}"));
    server.on("/pypi/acme-tools/json", ok("{\"info\":{\"name\":\"acme-tools\"}}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{org: acme}",
                """
                - unit: metadata
                  shape: dump
                  path: "/pypi/{{ key }}/json"
                  rows: {decoder: document}
                  errors: {ignore_status: [404]}
                  construct:
                    keyset:
                      from: [requests, gone, "{{ vars.org }}-tools"]"""),
            "metadata");

    assertThat(sink.records())
        .containsExactly(
            "{\"info\":{\"name\":\"requests\"}}", "{\"info\":{\"name\":\"acme-tools\"}}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths())
        .containsExactly("/pypi/requests/json", "/pypi/gone/json", "/pypi/acme-tools/json");
  }

  @Test
  void aKeysRequestThatFailsAbortsTheDumpAndOneItIgnoresIsNoKeys() throws Exception {
    server.on("/detector", json(401, "{\"message\":\"bad token\"}"));
    String endpoint =
        """
        - unit: findings
          shape: dump
          path: "/d/{{ key }}"
          rows: {decoder: json_array}
          construct:
            keyset:
              request: {path: /detector ERRORS}
              keys_at: /detectorIds""";

    RecordingSink failed =
        RestFixture.read(connection("{}", endpoint.replace(" ERRORS", "")), "findings");
    RecordingSink ignored =
        RestFixture.read(
            connection("{}", endpoint.replace(" ERRORS", ", errors: {ignore_status: [401]}")),
            "findings");

    assertThat(failed.shape()).containsExactly("begin", "abort");
    assertThat(failed.abortReason().orElseThrow())
        .startsWith("lab.findings: GET " + server.url() + "/detector answered 401");
    assertThat(ignored.shape()).containsExactly("begin", "end");
    assertThat(server.paths()).containsExactly("/detector", "/detector");
  }

  @Test
  void keysAtThatHoldsNoListFailsTheTickNamingTheSetting() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":\"d1\"}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "{}",
                """
                - unit: findings
                  shape: dump
                  path: "/d/{{ key }}"
                  rows: {decoder: json_array}
                  construct:
                    keyset:
                      request: {path: /detector}
                      keys_at: /detectorIds"""),
            "findings");

    assertThat(sink.abortReason())
        .contains(
            "lab.findings: sources.rest.lab.profile.endpoints[0].construct.keyset.keys_at: the"
                + " answer to sources.rest.lab.profile.endpoints[0].construct.keyset.request has"
                + " no list at /detectorIds");
  }

  @Test
  void mistakesAreReportedAtTheirPlaces() {
    String at = "sources.rest.lab.profile.endpoints[0].";
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                vars: {one: "x"}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: both
                      shape: dump
                      path: "/d/{{ key }}"
                      rows: {decoder: json_array}
                      construct:
                        keyset: {from: "{{ vars.one.split(',') }}", request: {path: /k}}
                    - unit: neither
                      shape: dump
                      path: /d
                      rows: {decoder: json_array}
                      construct: {keyset: {}}
                    - unit: stray
                      shape: dump
                      path: /d
                      rows: {decoder: json_array}
                      construct: {keyset: {from: "{{ vars.one.split(',') }}", keys_at: /k}}
                    - unit: nolist
                      shape: dump
                      path: /d
                      rows: {decoder: json_array}
                      construct: {keyset: {from: "{{ vars.one }}"}}
                    - unit: nokeysat
                      shape: dump
                      path: /d
                      rows: {decoder: json_array}
                      construct: {keyset: {request: {path: /k}}}
                    - unit: nokeyset
                      shape: dump
                      path: "/d/{{ key }}"
                      rows: {decoder: json_array}
                    - unit: unknown
                      shape: dump
                      path: /d
                      rows: {decoder: json_array}
                      construct: {fanout: {}}
                """))
        .containsExactly(
            "config.yaml:11:17: "
                + at
                + "construct.keyset: takes one of from and request, not both",
            "config.yaml:16:27: "
                + "sources.rest.lab.profile.endpoints[1].construct.keyset: needs from (a template"
                + " yielding the keys) or request (with keys_at)",
            "config.yaml:21:72: sources.rest.lab.profile.endpoints[2].construct.keyset.keys_at:"
                + " applies with request only: it points into request's answer",
            "config.yaml:26:34: sources.rest.lab.profile.endpoints[3].construct.keyset.from:"
                + " yields no list with the instance's vars; yield a list, e.g. {{"
                + " vars.crates.split(',') }}, or a string holding a JSON array",
            "config.yaml:31:27: sources.rest.lab.profile.endpoints[4].construct.keyset.keys_at:"
                + " is required",
            "config.yaml:34:13: sources.rest.lab.profile.endpoints[5].path: reads {{ key }},"
                + " which only an endpoint with construct.keyset has",
            "config.yaml:40:19: sources.rest.lab.profile.endpoints[6].construct.fanout: unknown"
                + " key; allowed keys: keyset, lookup, manifest, queue, fold");
  }
}
