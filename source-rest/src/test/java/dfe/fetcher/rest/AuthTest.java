package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AuthTest {

  private ApiServer server;
  private ApiServer other;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    other = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
    other.close();
  }

  private RestConnection withAuth(String auth) {
    return RestFixture.connection(
        """
        topic: lab
        auth: %s
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               paginate: {type: link_header}}
        """
            .formatted(auth, server.url()),
        Map.of("LAB_TOKEN", "tok-123", "LAB_SECRET", "s3cret"));
  }

  @Test
  void noneSendsNoAuthorization() throws Exception {
    server.on("/assets", ok("[{\"id\":1}]"));

    RestFixture.read(withAuth("{mode: none}"), "assets");

    assertThat(server.requests().get(0).header("Authorization")).isNull();
  }

  @Test
  void bearerSendsTheTokenResolvedFromItsSecret() throws Exception {
    server.on("/assets", ok("[{\"id\":1}]"));

    RecordingSink sink =
        RestFixture.read(withAuth("{mode: bearer, token: env:LAB_TOKEN}"), "assets");

    assertThat(sink.records()).hasSize(1);
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-123");
  }

  @Test
  void basicSendsUserAndPassword() throws Exception {
    server.on("/assets", ok("[]"));

    RestFixture.read(withAuth("{mode: basic, user: ops, password: env:LAB_SECRET}"), "assets");

    assertThat(server.requests().get(0).header("Authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void apiKeyInAHeaderCarriesItsPrefix() throws Exception {
    server.on("/assets", ok("[]"));

    RestFixture.read(
        withAuth("{mode: api_key, key: env:LAB_TOKEN, header: Authorization, prefix: 'SSWS '}"),
        "assets");

    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("SSWS tok-123");
  }

  @Test
  void apiKeyInTheQueryIsSentButNeverInErrors() throws Exception {
    server.on("/assets", ApiServer.json(404, "{\"message\":\"gone\"}"));

    RecordingSink sink =
        RestFixture.read(
            withAuth("{mode: api_key, key: env:LAB_TOKEN, query_param: key}"), "assets");

    assertThat(server.paths()).containsExactly("/assets?key=tok-123");
    assertThat(sink.abortReason())
        .hasValue("lab.assets: GET " + server.url() + "/assets answered 404; not retried");
  }

  @Test
  void oauth2FetchesATokenOnceCachesItAndRefreshesOnceOn401() throws Exception {
    int[] tokens = {0};
    server.on(
        "/oauth/token",
        exchange -> {
          tokens[0]++;
          ok("{\"access_token\":\"at-" + tokens[0] + "\",\"expires_in\":3600}").answer(exchange);
        });
    server.on(
        "/assets",
        ok("[{\"id\":1}]"),
        ok("[{\"id\":2}]"),
        ApiServer.json(401, "{}"),
        ok("[{\"id\":3}]"));
    RestConnection connection =
        withAuth(
            "{mode: oauth2_client_credentials, token_url: '"
                + server.url()
                + "/oauth/token', client_id: app, client_secret: env:LAB_SECRET, scope: read}");

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      for (int tick = 0; tick < 3; tick++) {
        open.source("assets").read(Optional.empty(), new RecordingSink(), new Cancellation());
      }
    }

    assertThat(server.requests())
        .extracting(
            ApiServer.Seen::pathAndQuery, seen -> String.valueOf(seen.header("Authorization")))
        .containsExactly(
            Tuple.tuple(
                "/oauth/token",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString("app:s3cret".getBytes(StandardCharsets.UTF_8))),
            Tuple.tuple("/assets", "Bearer at-1"),
            Tuple.tuple("/assets", "Bearer at-1"),
            Tuple.tuple("/assets", "Bearer at-1"),
            Tuple.tuple(
                "/oauth/token",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString("app:s3cret".getBytes(StandardCharsets.UTF_8))),
            Tuple.tuple("/assets", "Bearer at-2"));
    assertThat(server.requests().get(0).body())
        .isEqualTo("grant_type=client_credentials&scope=read");
  }

  @Test
  void aLinkToAnotherOriginIsFollowedWithoutCredentials() throws Exception {
    server.on(
        "/assets", ok("[{\"id\":1}]", "Link", "<" + other.url() + "/mirror?page=2>; rel=\"next\""));
    other.on("/mirror", ok("[{\"id\":2}]"));

    RecordingSink sink =
        RestFixture.read(withAuth("{mode: bearer, token: env:LAB_TOKEN}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-123");
    assertThat(other.paths()).containsExactly("/mirror?page=2");
    assertThat(other.requests().get(0).header("Authorization")).isNull();
  }

  @Test
  void aRedirectToAnotherOriginIsRefused() throws Exception {
    server.on(
        "/assets", ApiServer.send(302, "text/plain", new byte[0], "Location", other.url() + "/x"));

    RecordingSink sink =
        RestFixture.read(withAuth("{mode: bearer, token: env:LAB_TOKEN}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .contains("redirected to another origin, http://127.0.0.1:" + other.url().split(":")[2]);
    assertThat(other.requests()).isEmpty();
  }

  @Test
  void aRedirectWithinTheOriginIsFollowedWithCredentials() throws Exception {
    server.on("/assets", ApiServer.send(301, "text/plain", new byte[0], "Location", "/v2/assets"));
    server.on("/v2/assets", ok("[{\"id\":1}]"));

    RecordingSink sink =
        RestFixture.read(withAuth("{mode: bearer, token: env:LAB_TOKEN}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer tok-123");
  }

  @Test
  void aSecretThatCannotBeReadFailsTheDumpNamingTheSettingBeforeAnyRequest() throws Exception {
    server.on("/assets", ok("[]"));

    RecordingSink sink = RestFixture.read(withAuth("{mode: bearer, token: env:NOT_SET}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: sources.rest.lab.auth.token: environment variable NOT_SET is not set");
    assertThat(server.requests()).isEmpty();
  }
}
