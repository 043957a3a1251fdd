package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.JWTClaimsSet;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OAuth2 mode's client authentication ({@code client_secret_basic}, {@code client_secret_post},
 * {@code private_key_jwt}), its {@code refresh_token} grant, {@code audience} and {@code scope}, as
 * the token endpoint receives them.
 */
class OAuth2ClientAuthTest {

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

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

  private RecordingSink read(String auth) throws Exception {
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            auth: {mode: oauth2_client_credentials, token_url: "%s/oauth2/v1/token",
                   client_id: app-1, %s}
            profile:
              base_url: "%s"
              endpoints:
                - {unit: users, shape: dump, path: /api/v1/users, rows: {decoder: json_array}}
            """
                .formatted(server.url(), auth, server.url()),
            Map.of("SECRET", "s3cret value", "REFRESH", "rt-123"));
    return RestFixture.read(connection, "users", Optional.empty(), clock);
  }

  private Map<String, String> tokenForm() {
    return JwtTokenEndpoint.form(server.requests().get(0).body());
  }

  @Test
  void clientSecretPostPutsTheClientInTheFormNotInAHeader() throws Exception {
    server.on("/oauth2/v1/token", ok("{\"access_token\":\"at-1\"}")).on("/api/v1/users", ok("[]"));

    read(
        "client_secret: env:SECRET, client_auth: client_secret_post, scope: users.read,"
            + " audience: https://api.example.com");

    assertThat(tokenForm())
        .containsExactly(
            Map.entry("grant_type", "client_credentials"),
            Map.entry("scope", "users.read"),
            Map.entry("audience", "https://api.example.com"),
            Map.entry("client_id", "app-1"),
            Map.entry("client_secret", "s3cret value"));
    assertThat(server.requests().get(0).header("Authorization")).isNull();
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer at-1");
  }

  @Test
  void theRefreshTokenGrantSendsTheRefreshTokenWithBasicClientAuthentication() throws Exception {
    server.on("/oauth2/v1/token", ok("{\"access_token\":\"at-2\"}")).on("/api/v1/users", ok("[]"));

    read("client_secret: env:SECRET, grant: refresh_token, refresh_token: env:REFRESH");

    assertThat(tokenForm())
        .containsExactly(
            Map.entry("grant_type", "refresh_token"), Map.entry("refresh_token", "rt-123"));
    assertThat(server.requests().get(0).header("Authorization")).startsWith("Basic ");
  }

  @Test
  void privateKeyJwtAuthenticatesTheClientWithAnAssertionTheEndpointVerifies() throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "client_assertion", "at-3");
    server.on("/oauth2/v1/token", tokens.answer()).on("/api/v1/users", ok("[]"));
    Path pem = TestKeys.privateKeyPem(keys, directory.resolve("client.pem"));

    RecordingSink sink =
        read(
            "client_auth: private_key_jwt, private_key: \"file:"
                + pem
                + "\", scope: okta.users.read");

    assertThat(sink.shape()).containsExactly("begin", "end");
    assertThat(tokens.refusals).isEmpty();
    Map<String, String> form = tokens.forms.peek();
    assertThat(form)
        .containsEntry("grant_type", "client_credentials")
        .containsEntry("scope", "okta.users.read")
        .containsEntry("client_id", "app-1")
        .containsEntry(
            "client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    JWTClaimsSet claims = tokens.verified().get(0);
    assertThat(claims.getIssuer()).isEqualTo("app-1");
    assertThat(claims.getSubject()).isEqualTo("app-1");
    assertThat(claims.getAudience()).containsExactly(server.url() + "/oauth2/v1/token");
    assertThat(claims.getJWTID()).isNotBlank();
    assertThat(claims.getExpirationTime()).isEqualTo(Date.from(NOW.plusSeconds(300)));
    assertThat(server.requests().get(0).header("Authorization")).isNull();
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer at-3");
  }

  @Test
  void settingsThatDoNotFitTheClientAuthenticationOrGrantAreReported() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: oauth2_client_credentials, token_url: "http://127.0.0.1:1/t",
                       client_id: a, client_secret: s, private_key: k, refresh_token: r,
                       client_auth: mtls}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: users, shape: dump, path: /u, rows: {decoder: json_array}}
                """))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.client_auth: unknown client_auth 'mtls'"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains(
                        "sources.rest.lab.auth.private_key: applies only with client_auth"
                            + " private_key_jwt"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains(
                        "sources.rest.lab.auth.refresh_token: applies only with grant"
                            + " refresh_token"));
  }
}
