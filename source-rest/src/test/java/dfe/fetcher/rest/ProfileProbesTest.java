package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.rest.profile.ShippedProfiles;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shipped profile names a probe, and each probe is sent against a local server the way {@code
 * config-check --probe} sends it: to the unit the probe names (its base_url and credentials), with
 * the window of a tail unit written in that unit's format, once, with the credential the provider
 * expects. The request the server saw is asserted exactly.
 */
class ProfileProbesTest {

  /** The clock: a probe's window is the minute before now less the unit's settle. */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");

  @TempDir Path directory;
  @AutoClose private final ApiServer server = ApiServer.started();

  @Test
  void everyShippedProfileNamesAProbe() {
    List<String> without =
        ShippedProfiles.NAMES.stream().filter(name -> !text(name).contains("\nprobe:")).toList();

    assertThat(without).as("shipped profiles without a probe").isEmpty();
  }

  /** One profile's probe: the instance, what its server answers on, what the request must be. */
  record ProbeCase(
      String profile,
      String instance,
      Map<String, String> environment,
      String tokenPath,
      String tokenAnswer,
      String pathAndQuery,
      Check credential) {
    @Override
    public String toString() {
      return profile;
    }
  }

  /** What a request must carry as its credential. */
  interface Check {
    void accept(ApiServer.Seen seen) throws Exception;
  }

  /**
   * A profile whose one variable is its server's URL and whose credential is a bearer token read
   * from the environment variable {@code variable}.
   */
  private static ProbeCase bearer(
      String profile, String urlVar, String variable, String token, String pathAndQuery) {
    return new ProbeCase(
        profile,
        "vars: {" + urlVar + ": \"%1$s\"}\nauth: {mode: bearer, token: env:" + variable + "}",
        Map.of(variable, token),
        null,
        null,
        pathAndQuery,
        seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer " + token));
  }

  static Stream<ProbeCase> probes() {
    return Stream.of(
        new ProbeCase(
            "bitwarden",
            "vars: {api_url: \"%1$s\"}\nauth: {mode: oauth2_client_credentials, token_url:"
                + " \"%1$s/connect/token\", client_id: organization.o1, client_secret:"
                + " env:BW_SECRET, client_auth: client_secret_post}",
            Map.of("BW_SECRET", "bw-secret"),
            "/connect/token",
            "{\"access_token\":\"bw-token\",\"expires_in\":3600}",
            "/public/events?start=2026-12-01T07%3A59%3A00Z&end=2026-12-01T08%3A00%3A00Z",
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer bw-token")),
        new ProbeCase(
            "datadog",
            "vars: {api_url: \"%1$s\"}\nauth: {mode: headers, headers: {DD-API-KEY: env:DD_API_KEY,"
                + " DD-APPLICATION-KEY: env:DD_APP_KEY}}",
            Map.of("DD_API_KEY", "dd-api", "DD_APP_KEY", "dd-app"),
            null,
            null,
            "/api/v2/audit/events?filter%5Bfrom%5D=2026-12-01T07%3A59%3A00.500Z"
                + "&filter%5Bto%5D=2026-12-01T08%3A00%3A00.500Z&page%5Blimit%5D=1",
            seen -> {
              assertThat(seen.header("DD-API-KEY")).isEqualTo("dd-api");
              assertThat(seen.header("DD-APPLICATION-KEY")).isEqualTo("dd-app");
            }),
        new ProbeCase(
            "duo",
            "vars: {api_host: \"%1$s\"}\nauth: {mode: signature, preset: duo, integration_key:"
                + " DIWJ8X6AEYOR5OMC6TQ1, secret_key:"
                + " literal:Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep}",
            Map.of(),
            null,
            null,
            // Duo's window ends two minutes behind now (settle: 2m), in epoch milliseconds.
            "/admin/v2/logs/authentication?mintime=1796111820500&maxtime=1796111880500&limit=10",
            seen ->
                assertThat(seen.header("Authorization"))
                    .isEqualTo(SignatureTest.expected(seen, 5))),
        bearer(
            "runzero",
            "console_url",
            "RUNZERO_EXPORT_TOKEN",
            "ET1",
            "/api/v1.0/export/org/sites.jsonl?fields=id"),
        bearer(
            "runzero-assets",
            "console_url",
            "RUNZERO_EXPORT_TOKEN",
            "ET1",
            "/api/v1.0/export/org/sites.jsonl?fields=id"),
        bearer(
            "slack",
            "api_url",
            "SLACK_TOKEN",
            "xoxp-1",
            "/audit/v1/logs?oldest=1796111940&latest=1796112000&limit=1"),
        new ProbeCase(
            "generic-json",
            "vars: {base_url: \"%1$s\", path: /v2/items}\nauth: {mode: api_key, header: X-Key,"
                + " key: literal:k1}",
            Map.of(),
            null,
            null,
            "/v2/items",
            seen -> assertThat(seen.header("X-Key")).isEqualTo("k1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("probes")
  void theProbeAsksItsCallOnceWithTheCredential(ProbeCase probe) throws Exception {
    if (probe.tokenPath() != null) {
      server.on(probe.tokenPath(), ok(probe.tokenAnswer()));
    }
    String path = probe.pathAndQuery().replaceFirst("\\?.*", "");
    server.on(path, ok("{}"));

    Optional<ProbeOutcome> outcome =
        send(
            "topic: x\nprofile: "
                + probe.profile()
                + "\n"
                + probe.instance().formatted(server.url())
                + "\n",
            probe.environment());

    assertThat(outcome).map(ProbeOutcome::verdict).contains(ProbeOutcome.Verdict.OK);
    List<ApiServer.Seen> probed =
        server.requests().stream().filter(seen -> seen.pathAndQuery().startsWith(path)).toList();
    assertThat(probed)
        .singleElement()
        .satisfies(seen -> assertThat(seen.pathAndQuery()).isEqualTo(probe.pathAndQuery()));
    probe.credential().accept(probed.get(0));
  }

  @Test
  void gcpProbesTheLoggingHostWhicheverUnitIsEnabledFirst() throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.gcp");
    server.on("/token", tokens.answer());
    server.on("/logging/v2/projects/acme-prod/logs", ok("{\"logNames\":[]}"));
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sa.pem"));
    String yaml =
        """
        topic: gcp
        profile: gcp
        vars: {logging_url: "%1$s/logging", scc_url: "%1$s/scc", resource_name: projects/acme-prod,
               organization_id: "1234"}
        auth: {mode: jwt_bearer, token_url: "%1$s/token", issuer: reader@acme-prod.iam.example,
               private_key: "file:%2$s"}
        units: {scc: {enabled: true}}
        """
            .formatted(server.url(), key);

    Optional<ProbeOutcome> outcome = send(yaml, Map.of());

    assertThat(outcome).map(ProbeOutcome::verdict).contains(ProbeOutcome.Verdict.OK);
    assertThat(server.paths())
        .containsExactly("/token", "/logging/v2/projects/acme-prod/logs?pageSize=1");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer ya29.gcp");
  }

  @Test
  void googleWorkspaceProbesOneLoginEventOfTheLastMinute() throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.ws");
    server.on("/token", tokens.answer());
    String path = "/admin/reports/v1/activity/users/all/applications/login";
    server.on(path, ok("{\"kind\":\"admin#reports#activities\"}"));
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("ws.pem"));
    String yaml =
        """
        topic: workspace
        profile: google_workspace
        vars: {api_url: "%1$s"}
        auth: {mode: jwt_bearer, token_url: "%1$s/token", issuer: reports@acme.iam.example,
               subject: admin@acme.example, private_key: "file:%2$s"}
        units: {drive: {enabled: true}}
        """
            .formatted(server.url(), key);

    Optional<ProbeOutcome> outcome = send(yaml, Map.of());

    assertThat(outcome).map(ProbeOutcome::verdict).contains(ProbeOutcome.Verdict.OK);
    assertThat(server.paths())
        .containsExactly(
            "/token",
            path
                + "?customerId=my_customer&startTime=2026-12-01T07%3A59%3A00.500Z"
                + "&endTime=2026-12-01T08%3A00%3A00.500Z&maxResults=1");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer ya29.ws");
  }

  @Test
  void gcpPubSubProbeDescribesTheSubscriptionWithoutPulling() throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.ps");
    server.on("/token", tokens.answer());
    String path = "/v1/projects/acme-prod/subscriptions/audit-sub";
    server.on(path, ok("{\"name\":\"projects/acme-prod/subscriptions/audit-sub\"}"));
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("ps.pem"));
    String yaml =
        """
        topic: pubsub
        profile: gcp_pubsub
        vars: {pubsub_url: "%1$s", project_id: acme-prod, subscription_id: audit-sub}
        auth: {mode: jwt_bearer, token_url: "%1$s/token", issuer: sub@acme.iam.example,
               private_key: "file:%2$s"}
        """
            .formatted(server.url(), key);

    Optional<ProbeOutcome> outcome = send(yaml, Map.of());

    assertThat(outcome).map(ProbeOutcome::verdict).contains(ProbeOutcome.Verdict.OK);
    assertThat(server.paths()).containsExactly("/token", path);
    assertThat(server.requests().get(1).method()).isEqualTo("GET");
  }

  @Test
  void aProbeNamingAUnitTheProfileLacksIsRefusedAtLoad() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            profile:
              base_url: "http://127.0.0.1:1"
              probe: {unit: nope, path: /me}
              endpoints:
                - {unit: items, shape: dump, path: /items, rows: {decoder: json_array}}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:4:17: sources.rest.lab.profile.probe.unit: the profile has no unit"
                + " 'nope'; its units: items");
  }

  @Test
  void aProbeOfADumpUnitCannotReadTheWindow() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            profile:
              base_url: "http://127.0.0.1:1"
              probe: {unit: items, path: /me, query: {since: "{{ window.start }}"}}
              endpoints:
                - {unit: items, shape: dump, path: /items, rows: {decoder: json_array}}
            """);

    assertThat(problems).singleElement().asString().contains("window.start");
  }

  private static String text(String profile) {
    try (InputStream in =
        ShippedProfiles.class.getResourceAsStream("/profiles/" + profile + ".yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Optional<ProbeOutcome> send(String yaml, Map<String, String> environment)
      throws InterruptedException {
    RestConnection connection = RestFixture.connection(yaml, environment);
    return connection.probe(
        new SourceRuntime(Clock.fixed(NOW, ZoneOffset.UTC), OversizePolicy.DEFAULT));
  }
}
