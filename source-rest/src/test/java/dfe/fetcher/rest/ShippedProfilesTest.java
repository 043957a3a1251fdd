package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.WindowMark;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each shipped profile against a local server answering in the shapes its API documents. */
class ShippedProfilesTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");

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

  private static ApiServer.Answer byQuery(
      String firstQuery, ApiServer.Answer first, ApiServer.Answer rest) {
    return (HttpExchange exchange) -> {
      String query = exchange.getRequestURI().getRawQuery();
      (firstQuery.equals(query) ? first : rest).answer(exchange);
    };
  }

  @Test
  void githubIssuesPagesByLinkHeaderSinceTheWindowStartWithABearerToken() throws Exception {
    String first =
        "state=all&sort=updated&direction=asc&per_page=100&since=2026-11-30T08%3A00%3A00Z";
    server.on(
        "/repos/acme/fetcher/issues",
        byQuery(
            first,
            ok(
                "[{\"id\":1,\"number\":10,\"title\":\"a\",\"updated_at\":\"2026-11-30T09:00:00Z\"}]",
                "Link",
                "<"
                    + server.url()
                    + "/repositories/42/issues?"
                    + first
                    + "&page=2>; rel=\"next\", <"
                    + server.url()
                    + "/repositories/42/issues?"
                    + first
                    + "&page=2>; rel=\"last\""),
            ok("[]")));
    server.on(
        "/repositories/42/issues",
        ok("[{\"id\":2,\"number\":11,\"title\":\"b\",\"updated_at\":\"2026-12-01T07:00:00Z\"}]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: github
            profile: github-issues
            vars: {api_url: "%s", owner: acme, repo: fetcher}
            auth: {mode: bearer, token: env:GITHUB_TOKEN}
            """
                .formatted(server.url()),
            Map.of("GITHUB_TOKEN", "ghp_test"));

    RecordingSink sink = RestFixture.read(connection, "issues", Optional.empty(), clock);

    assertThat(sink.records()).hasSize(2);
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    assertThat(server.paths())
        .containsExactly(
            "/repos/acme/fetcher/issues?" + first, "/repositories/42/issues?" + first + "&page=2");
    ApiServer.Seen request = server.requests().get(0);
    assertThat(request.header("Authorization")).isEqualTo("Bearer ghp_test");
    assertThat(request.header("Accept")).isEqualTo("application/vnd.github+json");
    assertThat(request.header("X-GitHub-Api-Version")).isEqualTo("2022-11-28");
  }

  @Test
  void oktaSystemLogReadsSinceUntilSettledAMinuteBehindWithAnSswsKey() throws Exception {
    String query =
        "since=2026-12-01T07%3A00%3A00.500Z&until=2026-12-01T07%3A59%3A00.500Z"
            + "&sortOrder=ASCENDING&limit=1000";
    server.on(
        "/api/v1/logs",
        byQuery(
            query,
            ok(
                "[{\"uuid\":\"e1\",\"eventType\":\"user.session.start\"}]",
                "Link",
                "<"
                    + server.url()
                    + "/api/v1/logs?"
                    + query
                    + ">; rel=\"self\", <"
                    + server.url()
                    + "/api/v1/logs?after=e1&"
                    + query
                    + ">; rel=\"next\""),
            ok("[]")));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: okta
            profile: okta-system-log
            vars: {org_url: "%s"}
            auth: {mode: api_key, key: env:OKTA_API_TOKEN}
            """
                .formatted(server.url()),
            Map.of("OKTA_API_TOKEN", "00abc"));

    RecordingSink sink = RestFixture.read(connection, "logs", Optional.empty(), clock);

    assertThat(sink.records())
        .containsExactly("{\"uuid\":\"e1\",\"eventType\":\"user.session.start\"}");
    assertThat(sink.checkpoint())
        .contains(new WindowMark(Instant.parse("2026-12-01T07:59:00.500Z")));
    assertThat(server.paths())
        .containsExactly("/api/v1/logs?" + query, "/api/v1/logs?after=e1&" + query);
    assertThat(server.requests())
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("SSWS 00abc"));
  }

  @Test
  void runzeroAssetsStreamsTheJsonLinesExportAsOneDump() throws Exception {
    server.on(
        "/api/v1.0/export/org/assets.jsonl",
        ApiServer.send(
            200,
            "application/x-ndjson",
            "{\"id\":\"a1\",\"addresses\":[\"10.0.0.1\"]}\n{\"id\":\"a2\",\"addresses\":[]}\n"
                .getBytes(StandardCharsets.UTF_8)));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: runzero
            profile: runzero-assets
            vars: {console_url: "%s"}
            auth: {mode: bearer, token: env:RUNZERO_EXPORT_TOKEN}
            """
                .formatted(server.url()),
            Map.of("RUNZERO_EXPORT_TOKEN", "ET1"));

    RecordingSink sink = RestFixture.read(connection, "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths())
        .containsExactly("/api/v1.0/export/org/assets.jsonl?search=alive%3At");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer ET1");
  }

  @Test
  void genericJsonReadsAnArrayPagedByLinkHeaders() throws Exception {
    server.on(
        "/api/items",
        exchange -> {
          String query = exchange.getRequestURI().getRawQuery();
          if (query == null) {
            ok("[{\"id\":1}]", "Link", "</api/items?page=2>; rel=\"next\"").answer(exchange);
          } else {
            ok("[{\"id\":2}]").answer(exchange);
          }
        });
    RestConnection connection =
        RestFixture.connection(
            """
            topic: items
            profile: generic-json
            vars: {base_url: "%s/api", path: /items}
            """
                .formatted(server.url()));

    RecordingSink sink = RestFixture.read(connection, "items");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/api/items", "/api/items?page=2");
  }
}
