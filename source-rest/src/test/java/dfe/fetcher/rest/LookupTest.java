package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code construct.lookup}: ids gathered from the listing's rows, sent in batches as a typed list;
 * the lookup's rows land, the listing's do not.
 */
class LookupTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(String endpoint) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
        %s
        """
            .formatted(server.url(), endpoint.indent(4)));
  }

  /** Answers a lookup with one row per id it was sent: {"found": id}. */
  private static void found(HttpExchange exchange) throws IOException {
    JsonNode ids = JSON.readTree((String) exchange.getAttribute(ApiServer.BODY)).path("ids");
    List<String> rows = new ArrayList<>();
    ids.forEach(id -> rows.add("{\"found\":" + id + "}"));
    ok("{\"items\":[" + String.join(",", rows) + "]}").answer(exchange);
  }

  private List<String> lookupBodies() {
    return server.requests().stream()
        .filter(seen -> seen.pathAndQuery().equals("/lookup"))
        .map(ApiServer.Seen::body)
        .toList();
  }

  private static String dump(String lookup) {
    return """
        - unit: found
          shape: dump
          path: /ids
          rows: {decoder: json_at, at: /ids}
          paginate: {type: cursor, from: "body:/next", into: "query:after"}
          construct:
            lookup:
        %s
              request:
                path: /lookup
                body: {ids: "{{ ids }}"}
                rows: {decoder: json_at, at: /items}"""
        .formatted(lookup.indent(6).stripTrailing());
  }

  @Test
  void idsGoInBatchesAsATypedListAfterEachPageAndOnlyTheLookupsRowsLand() throws Exception {
    server.on(
        "/ids",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"ids\":[1,2,3],\"next\":\"p2\"}"),
                "after=p2", ok("{\"ids\":[4,5],\"next\":null}"))));
    server.on("/lookup", LookupTest::found);

    RecordingSink sink = RestFixture.read(connection(dump("batch: 2")), "found");

    assertThat(sink.records())
        .containsExactly(
            "{\"found\":1}", "{\"found\":2}", "{\"found\":3}", "{\"found\":4}", "{\"found\":5}");
    assertThat(sink.shape()).startsWith("begin").endsWith("end");
    assertThat(server.requests())
        .extracting(seen -> seen.method() + " " + seen.pathAndQuery() + " " + seen.body())
        .containsExactly(
            "GET /ids ",
            "POST /lookup {\"ids\":[1,2]}",
            "GET /ids?after=p2 ",
            "POST /lookup {\"ids\":[3,4]}",
            "POST /lookup {\"ids\":[5]}");
    assertThat(server.requests().get(1).header("Content-Type")).isEqualTo("application/json");
  }

  @Test
  void batchPlusOneIdsMakeTwoRequestsAndExactlyABatchMakesOne() throws Exception {
    server.on(
        "/ids",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"ids\":[\"a\",\"b\",\"c\",\"d\"],\"next\":\"p2\"}"),
                "after=p2", ok("{\"ids\":[\"e\",\"f\",\"g\"],\"next\":null}"))));
    server.on("/lookup", LookupTest::found);

    RecordingSink sink = RestFixture.read(connection(dump("batch: 3")), "found");

    assertThat(sink.rowCount()).isEqualTo(7);
    assertThat(lookupBodies())
        .containsExactly(
            "{\"ids\":[\"a\",\"b\",\"c\"]}", "{\"ids\":[\"d\",\"e\",\"f\"]}", "{\"ids\":[\"g\"]}");
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void lookupsGoBetweenPagesSoOneRequestSlotIsEnough() throws Exception {
    server.on(
        "/ids",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"ids\":[1,2],\"next\":\"p2\"}"),
                "after=p2", ok("{\"ids\":[3],\"next\":null}"))));
    server.on("/lookup", LookupTest::found);
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            max_concurrent_requests: 1
            profile:
              base_url: "%s"
              retry: {max_retries: 0}
              endpoints:
            %s
            """
                .formatted(server.url(), dump("batch: 1").indent(4)));

    RecordingSink sink = RestFixture.read(connection, "found");

    assertThat(sink.records()).containsExactly("{\"found\":1}", "{\"found\":2}", "{\"found\":3}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void theDefaultBatchIsAThousand() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 1001; i++) {
      ids.add("\"i" + i + "\"");
    }
    server.on("/ids", ok("{\"ids\":[" + String.join(",", ids) + "]}"));
    server.on("/lookup", LookupTest::found);

    RecordingSink sink = RestFixture.read(connection(dump("")), "found");

    assertThat(sink.rowCount()).isEqualTo(1001);
    assertThat(lookupBodies()).hasSize(2);
    assertThat(JSON.readTree(lookupBodies().get(0)).path("ids").size()).isEqualTo(1000);
    assertThat(lookupBodies().get(1)).isEqualTo("{\"ids\":[\"i1000\"]}");
  }

  @Test
  void idAtReadsEachRowsIdAndARowWithoutOneFailsNamingTheSetting() throws Exception {
    server.on("/ids", ok("{\"ids\":[{\"id\":\"x\",\"n\":1},{\"id\":{\"k\":2}}]}"));
    server.on("/lookup", LookupTest::found);

    RecordingSink sink = RestFixture.read(connection(dump("id_at: /id")), "found");

    assertThat(sink.records()).containsExactly("{\"found\":\"x\"}", "{\"found\":{\"k\":2}}");
    assertThat(lookupBodies()).containsExactly("{\"ids\":[\"x\",{\"k\":2}]}");

    server.on("/ids", ok("{\"ids\":[{\"id\":\"x\"},{\"other\":1}]}"));
    RecordingSink missing = RestFixture.read(connection(dump("id_at: /id")), "found");

    assertThat(missing.shape()).containsExactly("begin", "abort");
    assertThat(missing.abortReason().orElseThrow())
        .isEqualTo(
            "lab.found: GET "
                + server.url()
                + "/ids row 1: sources.rest.lab.profile.endpoints[0].construct.lookup.id_at: the"
                + " row has no id at /id");
  }

  @Test
  void theLookupFollowsItsOwnPagerUpToItsOwnMaxPages() throws Exception {
    server.on("/ids", ok("{\"ids\":[1,2],\"next\":null}"));
    server.on(
        "/lookup",
        exchange -> {
          JsonNode body = JSON.readTree((String) exchange.getAttribute(ApiServer.BODY));
          String token = body.path("NextToken").asText("");
          ok(switch (token) {
                case "" -> "{\"items\":[{\"p\":1}],\"NextToken\":\"t2\"}";
                case "t2" -> "{\"items\":[{\"p\":2}],\"NextToken\":\"t3\"}";
                default -> "{\"items\":[{\"p\":3}],\"NextToken\":null}";
              })
              .answer(exchange);
        });
    String lookup =
        """
        - unit: found
          shape: dump
          path: /ids
          rows: {decoder: json_at, at: /ids}
          construct:
            lookup:
              request:
                path: /lookup
                body: {ids: "{{ ids }}"}
                rows: {decoder: json_at, at: /items}
                paginate: {type: cursor, from: "body:/NextToken", into: "body:/NextToken"}
                max_pages: MAX""";

    RecordingSink three = RestFixture.read(connection(lookup.replace("MAX", "3")), "found");
    RecordingSink two = RestFixture.read(connection(lookup.replace("MAX", "2")), "found");

    assertThat(three.records()).containsExactly("{\"p\":1}", "{\"p\":2}", "{\"p\":3}");
    assertThat(three.shape()).endsWith("end");
    assertThat(lookupBodies())
        .startsWith(
            "{\"ids\":[1,2]}",
            "{\"ids\":[1,2],\"NextToken\":\"t2\"}",
            "{\"ids\":[1,2],\"NextToken\":\"t3\"}");
    assertThat(two.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(two.abortReason().orElseThrow())
        .contains("reached max_pages 2 with more to read")
        .endsWith("(the sources.rest.lab.profile.endpoints[0].construct.lookup.request of 2 ids)");
  }

  @Test
  void aFailingLookupAbortsTheDumpAndCommitsNothingOfAWindow() throws Exception {
    server.on("/ids", ok("{\"ids\":[1,2,3],\"next\":null}"));
    server.on(
        "/lookup",
        ok("{\"items\":[{\"found\":1},{\"found\":2}]}"),
        json(503, "{\"message\":\"slow down\"}"));

    RecordingSink dump = RestFixture.read(connection(dump("batch: 2")), "found");

    assertThat(dump.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(dump.abortReason().orElseThrow())
        .startsWith("lab.found: POST " + server.url() + "/lookup")
        .contains("answered 503");

    RestConnection tail =
        connection(
            """
            - unit: found
              shape: tail
              path: /ids
              query: {since: "{{ window.start }}"}
              rows: {decoder: json_at, at: /ids}
              window: {format: rfc3339_secs, lookback: 1h}
              construct:
                lookup:
                  request:
                    path: /lookup
                    body: {ids: "{{ ids }}"}
                    rows: {decoder: json_at, at: /items}""");
    RecordingSink sink = new RecordingSink();
    assertThatThrownBy(
            () -> {
              try (OpenConnection open =
                  RestFixture.open(
                      tail,
                      new MutableClock(Instant.parse("2026-12-01T09:00:00Z")),
                      SourceMetrics.NONE)) {
                open.source("found").read(Optional.empty(), sink, new Cancellation());
              }
            })
        .hasMessageContaining("/lookup")
        .hasMessageContaining("answered 503");
    assertThat(sink.checkpoint()).isEmpty();
  }

  @Test
  void aLookupStatusItIgnoresGivesNoRowsAndTheListingGoesOn() throws Exception {
    server.on("/ids", ok("{\"ids\":[1,2],\"next\":null}"));
    server.on("/lookup", json(404, "{}"), LookupTest::found);

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                - unit: found
                  shape: dump
                  path: /ids
                  rows: {decoder: json_at, at: /ids}
                  construct:
                    lookup:
                      batch: 1
                      request:
                        path: /lookup
                        body: {ids: "{{ ids }}"}
                        rows: {decoder: json_at, at: /items}
                        errors: {ignore_status: [404]}"""),
            "found");

    assertThat(sink.records()).containsExactly("{\"found\":2}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void aKeysetBesideALookupListsAndLooksUpPerKey() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":[\"d1\",\"d2\"]}"));
    server.on("/detector/d1/findings", ok("{\"findingIds\":[\"f1\",\"f2\"]}"));
    server.on("/detector/d2/findings", ok("{\"findingIds\":[\"f3\"]}"));
    server.on("/detector/d1/findings/get", ok("{\"findings\":[{\"Id\":\"f1\"},{\"Id\":\"f2\"}]}"));
    server.on("/detector/d2/findings/get", ok("{\"findings\":[{\"Id\":\"f3\"}]}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                - unit: guardduty
                  shape: dump
                  method: POST
                  path: "/detector/{{ key }}/findings"
                  body: {maxResults: 50}
                  rows: {decoder: json_at, at: /findingIds}
                  construct:
                    keyset:
                      request: {path: /detector}
                      keys_at: /detectorIds
                    lookup:
                      batch: 50
                      request:
                        path: "/detector/{{ key }}/findings/get"
                        body: {findingIds: "{{ ids }}"}
                        rows:
                          decoder: json_at
                          at: /findings
                          add_fields: {_detector: "{{ key }}"}"""),
            "guardduty");

    assertThat(sink.records())
        .containsExactly(
            "{\"Id\":\"f1\",\"_detector\":\"d1\"}",
            "{\"Id\":\"f2\",\"_detector\":\"d1\"}",
            "{\"Id\":\"f3\",\"_detector\":\"d2\"}");
    assertThat(server.requests())
        .extracting(seen -> seen.method() + " " + seen.pathAndQuery() + " " + seen.body())
        .containsExactly(
            "GET /detector ",
            "POST /detector/d1/findings {\"maxResults\":50}",
            "POST /detector/d1/findings/get {\"findingIds\":[\"f1\",\"f2\"]}",
            "POST /detector/d2/findings {\"maxResults\":50}",
            "POST /detector/d2/findings/get {\"findingIds\":[\"f3\"]}");
  }

  @Test
  void configCheckNamesAUnitsConstructs() {
    RestConnection connection =
        connection(
            """
            - unit: guardduty
              shape: dump
              path: "/detector/{{ key }}/findings"
              rows: {decoder: json_at, at: /findingIds}
              prelude: [{path: /subscribe}]
              construct:
                keyset:
                  request: {path: /detector}
                  keys_at: /detectorIds
                lookup:
                  batch: 50
                  request:
                    path: "/detector/{{ key }}/findings/get"
                    body: {findingIds: "{{ ids }}"}
                    rows: {decoder: json_at, at: /findings}""");

    assertThat(connection.units().get(0).details())
        .contains(
            "constructs: prelude of 1; keyset from GET /detector; lookup of 50 ids a request, POST"
                + " /detector/{{ key }}/findings/get");
  }

  @Test
  void mistakesAreReportedAtTheirPlaces() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: norequest
                      shape: dump
                      path: /ids
                      rows: {decoder: json_array}
                      construct: {lookup: {batch: 0}}
                    - unit: noids
                      shape: dump
                      path: /ids
                      rows: {decoder: json_array}
                      construct: {lookup: {request: {path: /l, rows: {decoder: json_array}}}}
                    - unit: norows
                      shape: dump
                      path: /ids
                      rows: {decoder: json_array}
                      construct: {lookup: {request: {path: /l, body: {ids: "{{ ids }}"}}}}
                    - unit: two
                      shape: dump
                      path: /ids
                      rows: {decoder: json_array}
                      construct:
                        lookup:
                          request: {path: /l, body: {i: "{{ ids }}"}, rows: {decoder: json_array}}
                        manifest:
                          item_request: {path: "/i/{{ item.id }}", rows: {decoder: document}}
                    - unit: idsoutside
                      shape: dump
                      path: "/ids/{{ ids }}"
                      rows: {decoder: json_array}
                """))
        .containsExactly(
            "config.yaml:9:27: sources.rest.lab.profile.endpoints[0].construct.lookup.request: is"
                + " required",
            "config.yaml:9:35: sources.rest.lab.profile.endpoints[0].construct.lookup.batch: must"
                + " be at least 1, was 0",
            "config.yaml:14:37: sources.rest.lab.profile.endpoints[1].construct.lookup.request:"
                + " reads no {{ ids }}, so every batch would be the same request; send the batch,"
                + " e.g. body: {ids: \"{{ ids }}\"}",
            "config.yaml:19:37:"
                + " sources.rest.lab.profile.endpoints[2].construct.lookup.request.rows: is"
                + " required",
            "config.yaml:28:11: sources.rest.lab.profile.endpoints[3].construct.manifest: beside"
                + " lookup: an endpoint takes at most one of lookup, manifest, queue (a keyset may"
                + " go beside a lookup or a manifest)",
            "config.yaml:31:13: sources.rest.lab.profile.endpoints[4].path: reads {{ ids }},"
                + " which only a construct.lookup request has");
  }
}
