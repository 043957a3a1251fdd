package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.ProbeOutcome;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A profile's {@code probe}: one authenticated request, its status judged, nothing landed and no
 * secret in what it says.
 */
class ProbeTest {

  private static final String TOKEN = "ghp_s3cr3t-probe-token";

  @AutoClose private final ApiServer server = ApiServer.started();

  private static Optional<ProbeOutcome> probe(RestConnection connection) throws Exception {
    return RestFixture.probe(connection);
  }

  private RestConnection github(String apiUrl) {
    return RestFixture.connection(
        """
        topic: github
        profile: github-issues
        vars: {api_url: "%s", owner: acme, repo: fetcher}
        auth: {mode: bearer, token: env:GITHUB_TOKEN}
        """
            .formatted(apiUrl),
        Map.of("GITHUB_TOKEN", TOKEN));
  }

  @Test
  void githubsProbeSendsTheTokenToRateLimitAndSaysOk() throws Exception {
    server.on("/rate_limit", ok("{\"resources\":{}}"));

    Optional<ProbeOutcome> outcome = probe(github(server.url()));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK, "GET " + server.url() + "/rate_limit answered 200"));
    ApiServer.Seen seen = server.requests().get(0);
    assertThat(seen.method()).isEqualTo("GET");
    assertThat(seen.pathAndQuery()).isEqualTo("/rate_limit");
    assertThat(seen.header("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(seen.header("X-GitHub-Api-Version")).isEqualTo("2022-11-28");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void oktasProbeAsksForTheTokensOwnUserWithTheSswsHeader() throws Exception {
    server.on("/api/v1/users/me", ok("{\"id\":\"00u1\"}"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: okta
            profile: okta-system-log
            vars: {org_url: "%s"}
            auth: {mode: api_key, key: env:OKTA_TOKEN}
            """
                .formatted(server.url()),
            Map.of("OKTA_TOKEN", "00a-okta-s3cr3t"));

    ProbeOutcome outcome = probe(connection).orElseThrow();

    assertThat(outcome.verdict()).isEqualTo(ProbeOutcome.Verdict.OK);
    assertThat(server.paths()).containsExactly("/api/v1/users/me");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("SSWS 00a-okta-s3cr3t");
  }

  @Test
  void aRefusedTokenIsRefusedWithItsStatusAndNeverQuoted() throws Exception {
    server.on("/rate_limit", json(401, "{\"message\":\"Bad credentials " + TOKEN + "\"}"));

    ProbeOutcome outcome = probe(github(server.url())).orElseThrow();

    assertThat(outcome.verdict()).isEqualTo(ProbeOutcome.Verdict.REFUSED);
    assertThat(outcome.detail())
        .isEqualTo(
            "GET "
                + server.url()
                + "/rate_limit answered 401, not [200] (check the instance's auth)");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aServerThatIsNotThereIsUnreachable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    ProbeOutcome outcome = probe(github("http://127.0.0.1:" + port)).orElseThrow();

    assertThat(outcome)
        .isEqualTo(
            new ProbeOutcome(
                ProbeOutcome.Verdict.UNREACHABLE,
                "GET http://127.0.0.1:" + port + "/rate_limit failed: connection refused"));
  }

  @Test
  void aProbeWithATemplatedPathAndAQueryKeyMasksTheKeyAndAcceptsAnyListedStatus() throws Exception {
    server.on("/v2/tenants/blue team/me", json(204, ""));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", tenant: "blue team"}
            auth: {mode: api_key, key: literal:k-s3cr3t, query_param: api_key}
            profile:
              base_url: "{{ vars.host }}/v2"
              probe:
                path: "/tenants/{{ vars.tenant }}/me"
                query: {fields: "{{ vars.tenant.upperAscii() }}"}
                expect_status: [200, 204]
              endpoints:
                - unit: items
                  shape: dump
                  path: /items
                  rows: {decoder: json_array}
            """
                .formatted(server.url()));

    ProbeOutcome outcome = probe(connection).orElseThrow();

    assertThat(outcome.verdict()).isEqualTo(ProbeOutcome.Verdict.OK);
    assertThat(outcome.detail()).doesNotContain("k-s3cr3t").contains("answered 204");
    assertThat(server.paths())
        .containsExactly("/v2/tenants/blue%20team/me?fields=BLUE+TEAM&api_key=k-s3cr3t");
  }

  @Test
  void aProfileWithoutAProbeHasNone() throws Exception {
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              endpoints:
                - {unit: items, shape: dump, path: /items, rows: {decoder: json_array}}
            """
                .formatted(server.url()));

    assertThat(probe(connection)).isEmpty();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aProbeThatIsNotWellWrittenIsRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  probe: {path: "me?x", method: DELETE, expect_status: [ok], colour: red}
                  endpoints: []
                """))
        .containsExactly(
            "config.yaml:4:17: sources.rest.lab.profile.probe.path: '?' (character 3) is not"
                + " allowed in a URI path; put query parameters under query",
            "config.yaml:4:17: sources.rest.lab.profile.probe.path: must start with '/' (it is"
                + " appended to base_url)",
            "config.yaml:4:33: sources.rest.lab.profile.probe.method: unknown method 'DELETE'; one"
                + " of GET, HEAD",
            "config.yaml:4:56: sources.rest.lab.profile.probe.expect_status: must be a list of"
                + " HTTP statuses, e.g. [200, 204]",
            "config.yaml:4:62: sources.rest.lab.profile.probe.colour: unknown key; allowed keys:"
                + " unit, method, path, query, expect_status, base_url, auth",
            "config.yaml:5:14: sources.rest.lab.profile.endpoints: needs at least one endpoint");
  }

  @Test
  void aProbesOwnBaseUrlThatRendersAsNoUrlIsUnreachableAndSendsNothing() throws Exception {
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {probe_host: "not a url"}
            profile:
              base_url: "%s"
              probe: {base_url: "{{ vars.probe_host }}", path: /whoami}
              endpoints:
                - unit: items
                  shape: dump
                  path: /items
                  rows: {decoder: json_array}
            """
                .formatted(server.url()));

    Optional<ProbeOutcome> outcome = probe(connection);

    assertThat(outcome)
        .hasValueSatisfying(
            o -> {
              assertThat(o.verdict()).isEqualTo(ProbeOutcome.Verdict.UNREACHABLE);
              assertThat(o.detail()).startsWith("the probe's request cannot be made: ");
            });
    assertThat(server.requests()).isEmpty();
  }
}
