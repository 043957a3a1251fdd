package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.ProbeOutcome;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code crowdstrike} profile against a local server answering as the Falcon Alerts API
 * does: a client-credentials token, a page of composite ids with {@code meta.pagination}, the last
 * page reaching its total, the entities answer for the ids, a 429 and an error list.
 */
class CrowdStrikeProfileTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");
  private static final String QUERIES = "/alerts/queries/alerts/v2";
  private static final String ENTITIES = "/alerts/entities/alerts/v2";

  @AutoClose private final ApiServer server = ApiServer.started();
  private final MutableClock clock = new MutableClock(NOW);
  private final List<Map<String, String>> tokenForms = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server.on(
        "/oauth2/token",
        exchange -> {
          tokenForms.add(JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY)));
          ApiServer.json(
                  201,
                  "{\"access_token\":\"cs-token\",\"token_type\":\"bearer\",\"expires_in\":1799}")
              .answer(exchange);
        });
  }

  private RestConnection crowdstrike(String filter) {
    return RestFixture.connection(
        """
        topic: crowdstrike
        profile: crowdstrike
        vars: {api_url: "%s", filter: "%s"}
        auth: {mode: oauth2_client_credentials, token_url: "%s/oauth2/token",
               client_id: cs-client, client_secret: env:CS_SECRET, client_auth: client_secret_post}
        """
            .formatted(server.url(), filter, server.url()),
        Map.of("CS_SECRET", "cs-s3cret"));
  }

  private static String query(String extra, int offset) {
    return "filter="
        + URLEncoder.encode(
            "created_timestamp:>='2026-12-01T07:00:00Z'+created_timestamp:<'2026-12-01T08:00:00Z'"
                + extra,
            StandardCharsets.UTF_8)
        + "&sort=created_timestamp.asc&offset="
        + offset
        + "&limit=1000";
  }

  private static String ids(int offset, int total, String... ids) {
    return "{\"meta\":{\"query_time\":0.01,\"pagination\":{\"offset\":"
        + offset
        + ",\"limit\":1000,\"total\":"
        + total
        + "},\"trace_id\":\"t1\"},\"resources\":[\""
        + String.join("\",\"", ids)
        + "\"],\"errors\":[]}";
  }

  private static String alert(String id) {
    return "{\"composite_id\":\"" + id + "\",\"severity\":70,\"status\":\"new\"}";
  }

  @Test
  void theWindowsAlertIdsArePagedByOffsetToTheirTotalThenLookedUpInOneBatch() throws Exception {
    server.on(
        QUERIES,
        ApiServer.byQuery(
            Map.of(
                query("", 0), ok(ids(0, 3, "cid:ind:1", "cid:ind:2")),
                query("", 2), ok(ids(2, 3, "cid:ind:3")))));
    server.on(
        ENTITIES,
        ok(
            "{\"meta\":{\"trace_id\":\"t2\"},\"resources\":["
                + alert("cid:ind:1")
                + ","
                + alert("cid:ind:2")
                + ","
                + alert("cid:ind:3")
                + "],\"errors\":[]}"));

    RecordingSink sink = RestFixture.read(crowdstrike(""), "alerts", Optional.empty(), clock);

    assertThat(sink.records())
        .containsExactly(alert("cid:ind:1"), alert("cid:ind:2"), alert("cid:ind:3"));
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    List<ApiServer.Seen> requests =
        server.requests().stream().filter(r -> !r.pathAndQuery().startsWith("/oauth2")).toList();
    assertThat(requests)
        .extracting(ApiServer.Seen::method, ApiServer.Seen::pathAndQuery)
        .containsExactly(
            tuple("GET", QUERIES + "?" + query("", 0)),
            tuple("GET", QUERIES + "?" + query("", 2)),
            tuple("POST", ENTITIES));
    assertThat(requests.get(2).body())
        .isEqualTo("{\"composite_ids\":[\"cid:ind:1\",\"cid:ind:2\",\"cid:ind:3\"]}");
    assertThat(requests.get(2).header("Content-Type")).isEqualTo("application/json");
    assertThat(requests)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer cs-token"));
    assertThat(tokenForms)
        .singleElement()
        .isEqualTo(
            Map.of(
                "grant_type", "client_credentials",
                "client_id", "cs-client",
                "client_secret", "cs-s3cret"));
  }

  @Test
  void theInstancesFilterIsAndedToTheWindowsClause() throws Exception {
    String query = query("+severity:>=50", 0);
    server.on(
        QUERIES,
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"meta\":{\"pagination\":{\"offset\":0,\"limit\":1000,\"total\":0}},"
                        + "\"resources\":[],\"errors\":[]}"))));

    RecordingSink sink =
        RestFixture.read(crowdstrike(" severity:>=50 "), "alerts", Optional.empty(), clock);

    assertThat(sink.records()).isEmpty();
    assertThat(server.paths()).containsExactly("/oauth2/token", QUERIES + "?" + query);
  }

  @Test
  void tooManyRequestsIsRetriedAfterTheBackOff() throws Exception {
    server.on(
        QUERIES,
        json(
            429,
            "{\"meta\":{},\"errors\":[{\"code\":429,\"message\":\"API rate limit exceeded.\"}]}",
            "X-RateLimit-Remaining",
            "0",
            "Retry-After",
            "0"),
        ok(ids(0, 1, "cid:ind:1")));
    server.on(ENTITIES, ok("{\"resources\":[" + alert("cid:ind:1") + "],\"errors\":[]}"));

    RecordingSink sink = RestFixture.read(crowdstrike(""), "alerts", Optional.empty(), clock);

    assertThat(sink.records()).containsExactly(alert("cid:ind:1"));
    assertThat(server.paths().stream().filter(p -> p.startsWith(QUERIES))).hasSize(2);
  }

  @Test
  void aLookupRefusedIsNotRetriedAndFailsTheWindowQuotingTheError() throws Exception {
    server.on(QUERIES, ok(ids(0, 1, "cid:ind:1")));
    server.on(
        ENTITIES,
        json(
            403,
            "{\"meta\":{},\"errors\":[{\"code\":403,\"message\":\"access denied, authorization"
                + " failed\"}],\"resources\":[]}"));
    RestConnection connection = crowdstrike("");

    assertThatThrownBy(() -> RestFixture.read(connection, "alerts", Optional.empty(), clock))
        .hasMessageContaining("403")
        .hasMessageContaining(ENTITIES)
        .hasMessageNotContaining("cs-token")
        .hasMessageNotContaining("cs-s3cret");
    assertThat(server.paths().stream().filter(p -> p.startsWith(ENTITIES))).hasSize(1);
  }

  @Test
  void theProbeAsksForOneAlertIdWithAFreshToken() throws Exception {
    server.on(QUERIES, ok(ids(0, 1, "cid:ind:1")));

    Optional<ProbeOutcome> outcome = RestFixture.probe(crowdstrike(""));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK,
                "GET " + server.url() + QUERIES + "?limit=1 answered 200"));
    assertThat(server.requests())
        .filteredOn(r -> r.pathAndQuery().startsWith(QUERIES))
        .singleElement()
        .satisfies(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer cs-token"));
  }
}
