package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An endpoint's {@code auth} (its own OAuth2/JWT scope, its own SigV4 service and region) and a
 * profile's {@code maturity}.
 */
class UnitAuthAndMaturityTest {

  private ApiServer server;
  private CapturedLogs logs;
  private final List<Map<String, String>> forms = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs = new CapturedLogs();
    server.on(
        "/token",
        exchange -> {
          Map<String, String> form =
              JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY));
          forms.add(form);
          ok("{\"access_token\":\"tok-" + form.getOrDefault("scope", "none") + "\"}")
              .answer(exchange);
        });
  }

  @AfterEach
  void stop() {
    logs.close();
    server.close();
  }

  private String oauth(String endpoints) {
    return """
        topic: lab
        auth: {mode: oauth2_client_credentials, token_url: "%s/token", client_id: c,
               client_secret: literal:s, scope: arm}
        profile:
          base_url: "%s"
          endpoints:
        %s
        """
        .formatted(server.url(), server.url(), endpoints.indent(4));
  }

  @Test
  void unitsOfOneOriginWithTheirOwnScopesEachGetTheirOwnTokenAndThoseOfOneScopeShareIt()
      throws Exception {
    server.on("/a", ok("[]")).on("/b", ok("[]")).on("/c", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            oauth(
                """
                - {unit: a, shape: dump, path: /a, rows: {decoder: json_array}}
                - {unit: b, shape: dump, path: /b, rows: {decoder: json_array}, auth: {scope: graph}}
                - {unit: c, shape: dump, path: /c, rows: {decoder: json_array}, auth: {scope: graph}}
                """));

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      for (String unit : List.of("a", "b", "c", "a")) {
        open.source(unit).read(Optional.empty(), new RecordingSink(), new Cancellation());
      }
    }

    assertThat(forms).extracting(form -> form.get("scope")).containsExactly("arm", "graph");
    assertThat(server.requests())
        .filteredOn(r -> !r.pathAndQuery().equals("/token"))
        .extracting(r -> r.pathAndQuery() + " " + r.header("Authorization"))
        .containsExactly(
            "/a Bearer tok-arm", "/b Bearer tok-graph", "/c Bearer tok-graph", "/a Bearer tok-arm");
  }

  @Test
  void aUnitsSigV4ServiceAndRegionAreWhatItsRequestsAreSignedFor() throws Exception {
    server.on("/logs", ok("[]")).on("/health", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            auth: {mode: sigv4, access_key_id: AKID, secret_access_key: literal:sk,
                   region: eu-west-1, service: execute-api}
            profile:
              base_url: "%s"
              endpoints:
                - {unit: plain, shape: dump, path: /logs, rows: {decoder: json_array}}
                - {unit: logs, shape: dump, path: /logs, rows: {decoder: json_array},
                   auth: {service: logs}}
                - {unit: health, shape: dump, path: /health, rows: {decoder: json_array},
                   auth: {service: health, region: us-east-1}}
            """
                .formatted(server.url()));

    for (String unit : List.of("plain", "logs", "health")) {
      RestFixture.read(connection, unit);
    }

    assertThat(server.requests())
        .extracting(
            r -> r.header("Authorization").replaceAll(".*Credential=AKID/\\d+/([^,]*),.*", "$1"))
        .containsExactly(
            "eu-west-1/execute-api/aws4_request",
            "eu-west-1/logs/aws4_request",
            "us-east-1/health/aws4_request");
    assertThat(server.requests())
        .allSatisfy(
            r ->
                assertThat(r.header("Authorization"))
                    .isEqualTo(SigV4Check.expectedAuthorization(r, "sk")));
  }

  @Test
  void aUnitsAuthThatCannotBeUsedIsRefusedNamingItsPlace() {
    List<String> problems =
        RestFixture.problems(
            oauth(
                """
                - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
                   auth: {service: Logs, scope: "", token: x}}
                """));

    assertThat(problems)
        .containsExactly(
            "config.yaml:8:24: sources.rest.lab.profile.endpoints[0].auth.service: must be an AWS"
                + " signing name, e.g. cloudtrail (lower-case letters, digits, '-')",
            "config.yaml:8:37: sources.rest.lab.profile.endpoints[0].auth.scope: must not be"
                + " empty; leave it out to use the instance's scope",
            "config.yaml:8:41: sources.rest.lab.profile.endpoints[0].auth.token: unknown key;"
                + " allowed keys: service, region, scope");
  }

  private String maturity(String maturity, boolean enabled) {
    return """
        topic: lab
        enabled: %s
        profile:
          maturity: %s
          base_url: "%s"
          endpoints:
            - {unit: a, shape: dump, path: /a, rows: {decoder: json_array}}
        """
        .formatted(enabled, maturity, server.url());
  }

  @Test
  void anEnabledInstanceOfAnAlphaOrBetaProfileIsWarnedAbout() {
    RestFixture.connection(maturity("alpha", true));
    RestFixture.connection(maturity("beta", true));

    assertThat(logs.texts())
        .filteredOn(text -> text.contains("event=rest_profile_not_stable"))
        .containsExactly(
            "event=rest_profile_not_stable source=lab profile=inline maturity=alpha: its requests"
                + " and rows may change between releases",
            "event=rest_profile_not_stable source=lab profile=inline maturity=beta: its requests"
                + " and rows may change between releases");
  }

  @Test
  void aStableProfileOrADisabledInstanceIsNot() {
    RestFixture.connection(maturity("stable", true));
    RestFixture.connection(maturity("alpha", false));

    assertThat(logs.texts()).noneMatch(text -> text.contains("rest_profile_not_stable"));
  }

  @Test
  void anUnknownMaturityIsRefusedNamingTheWords() {
    assertThat(RestFixture.problems(maturity("experimental", true)))
        .containsExactly(
            "config.yaml:4:13: sources.rest.lab.profile.maturity: unknown maturity 'experimental';"
                + " one of alpha, beta, stable");
  }
}
