package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.WindowMark;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every unit of the provider profiles (gcp, aws, azure, ...) loaded through the real binder and
 * read once against a local server answering in the shapes the provider documents: the request the
 * server saw (method, path, the window's bounds in the provider's format, the credential), the rows
 * landed, the provider's pagination token followed to a second page; and per profile one error
 * answer as the provider writes it.
 */
class ProviderProfilesTest {

  /** The clock: a one-hour lookback makes the first window [07:00:00.500, 08:00:00.500). */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");

  @TempDir Path directory;
  private ApiServer server;
  private final MutableClock clock = new MutableClock(NOW);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The second page when the request (its query or body) carries {@code token}, else the first. */
  private static ApiServer.Answer paged(String token, String first, String second) {
    return exchange -> {
      String query = exchange.getRequestURI().getRawQuery();
      String body = (String) exchange.getAttribute(ApiServer.BODY);
      boolean next = (query != null && query.contains(token)) || body.contains(token);
      ok(next ? second : first).answer(exchange);
    };
  }

  private RecordingSink read(String yaml, Map<String, String> environment, String unit)
      throws Exception {
    return RestFixture.read(
        RestFixture.connection(yaml, environment), unit, Optional.empty(), clock);
  }

  // ---------------------------------------------------------------- gcp

  private String gcp(String unit) throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.gcp");
    server.on("/token", tokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sa.pem"));
    return """
        topic: gcp
        profile: gcp
        vars: {logging_url: "%s", scc_url: "%s", resource_name: projects/acme-prod,
               organization_id: "1234"}
        auth: {mode: jwt_bearer, token_url: "%s/token", issuer: reader@acme-prod.iam.example,
               private_key: "file:%s"}
        units: {%s: {enabled: true}}
        """
        .formatted(server.url(), server.url(), server.url(), key, unit);
  }

  static Stream<Arguments> gcpLoggingUnits() {
    return Stream.of(
        Arguments.of("admin_activity", "log_id(\\\"cloudaudit.googleapis.com/activity\\\")"),
        Arguments.of("data_access", "log_id(\\\"cloudaudit.googleapis.com/data_access\\\")"),
        Arguments.of("system_event", "log_id(\\\"cloudaudit.googleapis.com/system_event\\\")"),
        Arguments.of("policy_denied", "log_id(\\\"cloudaudit.googleapis.com/policy\\\")"),
        Arguments.of("vpc_flow_logs", "log_id(\\\"compute.googleapis.com/vpc_flows\\\")"),
        Arguments.of("dns_queries", "log_id(\\\"dns.googleapis.com/dns_queries\\\")"),
        Arguments.of(
            "storage_access",
            "resource.type=\\\"gcs_bucket\\\" AND log_id(\\\"cloudaudit.googleapis.com/data_access\\\")"),
        Arguments.of("cloud_logging", "severity >= WARNING"));
  }

  @ParameterizedTest
  @MethodSource("gcpLoggingUnits")
  void gcpLoggingUnitsListEntriesInTheWindowAndFollowNextPageToken(String unit, String filter)
      throws Exception {
    server.on(
        "/v2/entries:list",
        paged(
            "\"pageToken\":\"t2\"",
            "{\"entries\":[{\"insertId\":\"a1\",\"logName\":\"projects/acme-prod/logs/x\"}],"
                + "\"nextPageToken\":\"t2\"}",
            "{\"entries\":[{\"insertId\":\"a2\"}]}"));

    RecordingSink sink = read(gcp(unit), Map.of(), unit);

    assertThat(sink.records())
        .containsExactly(
            "{\"insertId\":\"a1\",\"logName\":\"projects/acme-prod/logs/x\"}",
            "{\"insertId\":\"a2\"}");
    assertThat(sink.checkpoint())
        .contains(new WindowMark(Instant.parse("2026-12-01T08:00:00.500Z")));
    List<ApiServer.Seen> pages =
        server.requests().stream().filter(r -> r.pathAndQuery().startsWith("/v2/")).toList();
    assertThat(pages).hasSize(2);
    String body =
        "{\"resourceNames\":[\"projects/acme-prod\"],\"filter\":\"("
            + filter
            + ") AND timestamp >= \\\"2026-12-01T07:00:00.500Z\\\""
            + " AND timestamp < \\\"2026-12-01T08:00:00.500Z\\\"\","
            + "\"orderBy\":\"timestamp asc\",\"pageSize\":1000";
    assertThat(pages.get(0).method()).isEqualTo("POST");
    assertThat(pages.get(0).body()).isEqualTo(body + "}");
    assertThat(pages.get(1).body()).isEqualTo(body + ",\"pageToken\":\"t2\"}");
    assertThat(pages)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer ya29.gcp"));
  }

  @Test
  void gcpSccListsTheOrganisationsFindingsAndFollowsNextPageTokenInTheQuery() throws Exception {
    server.on(
        "/v1/organizations/1234/sources/-/findings",
        paged(
            "pageToken=f2",
            "{\"listFindingsResults\":[{\"finding\":{\"name\":\"organizations/1234/sources/9/findings/a\"}}],"
                + "\"nextPageToken\":\"f2\",\"totalSize\":2}",
            "{\"listFindingsResults\":[{\"finding\":{\"name\":\"organizations/1234/sources/9/findings/b\"}}],"
                + "\"totalSize\":2}"));

    RecordingSink sink = read(gcp("scc"), Map.of(), "scc");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths())
        .containsSubsequence(
            "/v1/organizations/1234/sources/-/findings?pageSize=1000",
            "/v1/organizations/1234/sources/-/findings?pageSize=1000&pageToken=f2");
    assertThat(server.requests().get(1).method()).isEqualTo("GET");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer ya29.gcp");
  }

  @Test
  void gcpPermissionDeniedIsNotRetriedAndQuotesGooglesMessage() throws Exception {
    server.on(
        "/v2/entries:list",
        json(
            403,
            "{\"error\":{\"code\":403,\"message\":\"Permission 'logging.logEntries.list' denied\","
                + "\"status\":\"PERMISSION_DENIED\"}}"));
    String yaml = gcp("admin_activity");

    assertThatThrownBy(() -> read(yaml, Map.of(), "admin_activity"))
        .hasMessageContaining("403")
        .hasMessageContaining("Permission 'logging.logEntries.list' denied")
        .hasMessageNotContaining("ya29.gcp");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/v2/"))).hasSize(1);
  }
}
