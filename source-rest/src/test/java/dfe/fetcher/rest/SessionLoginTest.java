package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code session_login}: one login for many requests, another shortly before the session's time to
 * live ends and one after a 401; the password reaches the login body only.
 */
class SessionLoginTest {

  private static final String PASSWORD = "pa55-w0rd-SECRET";
  private static final String SESSION = "sess-abc-123";

  private ApiServer server;
  private CapturedLogs logs;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs = new CapturedLogs();
  }

  @AfterEach
  void stop() {
    logs.close();
    server.close();
  }

  private RestConnection connection(String tokenAndTtl) {
    return RestFixture.connection(
        """
        topic: lab
        auth:
          mode: session_login
          login_path: /api/login
          login_body: {user: ops, password: {secret: env:APP_PASSWORD}, remember: false}
          %s
        profile:
          base_url: "%s/api"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
        """
            .formatted(tokenAndTtl, server.url()),
        Map.of("APP_PASSWORD", PASSWORD));
  }

  private static RecordingSink read(OpenConnection open) throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source("assets").read(Optional.empty(), sink, new Cancellation());
    return sink;
  }

  private long logins() {
    return server.paths().stream().filter("/api/login"::equals).count();
  }

  @Test
  void oneLoginServesManyRequestsUntilShortlyBeforeItsTimeToLiveEnds() throws Exception {
    server
        .on("/api/login", ok("{\"data\":{\"token\":\"" + SESSION + "\"}}"))
        .on("/api/assets", ok("[{\"id\":1}]"));
    RestConnection connection = connection("token_pointer: /data/token\n  ttl_secs: 600");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      for (int i = 0; i < 3; i++) {
        assertThat(read(open).shape()).containsExactly("begin", "row", "end");
      }
      assertThat(logins()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(569));
      read(open);
      assertThat(logins()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(2));
      read(open);
      assertThat(logins()).isEqualTo(2);
    }

    ApiServer.Seen login = server.requests().get(0);
    assertThat(login.method()).isEqualTo("POST");
    assertThat(login.header("Content-Type")).isEqualTo("application/json");
    assertThat(login.body())
        .isEqualTo("{\"user\":\"ops\",\"password\":\"" + PASSWORD + "\",\"remember\":false}");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer " + SESSION);
    assertNoPassword(List.of());
  }

  @Test
  void a401LogsInOnceMoreAndTheRequestIsTriedWithTheNewSession() throws Exception {
    server
        .on(
            "/api/login",
            ok("{}", "X-Session", "first", "X-Ignored", "x"),
            ok("{}", "X-Session", "second"))
        .on("/api/assets", json(401, "{\"error\":\"expired\"}"), ok("[{\"id\":1}]"));
    RestConnection connection =
        connection("token_header: X-Session\n  ttl_secs: 3600\n  header: X-Auth-Session");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      assertThat(read(open).shape()).containsExactly("begin", "row", "end");
    }

    assertThat(server.paths())
        .containsExactly("/api/login", "/api/assets", "/api/login", "/api/assets");
    assertThat(server.requests().get(1).header("X-Auth-Session")).isEqualTo("first");
    assertThat(server.requests().get(3).header("X-Auth-Session")).isEqualTo("second");
    assertThat(server.requests().get(3).header("Authorization")).isNull();
  }

  @Test
  void theSessionsLifeCanComeFromTheLoginAnswer() throws Exception {
    server
        .on("/api/login", ok("{\"token\":\"" + SESSION + "\",\"expires_in\":120}"))
        .on("/api/assets", ok("[]"));
    RestConnection connection =
        connection("token_pointer: /token\n  expires_in_pointer: /expires_in");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      read(open);
      clock.advance(Duration.ofSeconds(89));
      read(open);
      clock.advance(Duration.ofSeconds(2));
      read(open);
    }

    assertThat(logins()).isEqualTo(2);
  }

  @Test
  void aRefusedLoginNamesTheLoginEndpointAndTheSettingNeverThePassword() throws Exception {
    server.on("/api/login", json(401, "{\"error\":\"bad password " + PASSWORD + "\"}"));

    RecordingSink sink =
        RestFixture.read(
            connection("token_pointer: /token\n  ttl_secs: 600"),
            "assets",
            Optional.empty(),
            clock);

    String reason = sink.abortReason().orElseThrow();
    assertThat(reason)
        .contains("lab.assets")
        .contains("the login endpoint " + server.url() + "/api/login answered 401")
        .contains("sources.rest.lab.auth.login_body");
    assertNoPassword(List.of(reason));
    assertThat(logs.texts()).isNotEmpty();
  }

  @Test
  void aLoginAnswerWithoutTheTokenFailsNamingThePointersSetting() throws Exception {
    server.on("/api/login", ok("{\"data\":{}}"));

    RecordingSink sink =
        RestFixture.read(
            connection("token_pointer: /data/token\n  ttl_secs: 600"),
            "assets",
            Optional.empty(),
            clock);

    assertThat(sink.abortReason().orElseThrow())
        .contains("answered without a token at /data/token")
        .contains("sources.rest.lab.auth.token_pointer");
  }

  @Test
  void neitherOrBothWaysOfReadingTheTokenAreReported() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: session_login, login_path: login, ttl_secs: 60}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """))
        .anySatisfy(
            p -> assertThat(p).contains("sources.rest.lab.auth.login_path: must be a URI path"))
        .anySatisfy(p -> assertThat(p).contains("needs exactly one of token_pointer"));
  }

  @Test
  void aLoginBodyValueJsonCannotCarryIsReportedAtItsPath() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: session_login, login_path: /login, token_pointer: /t, ttl_secs: 60,
                       login_body: {user: ops, weight: .inf}}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.login_body.weight: is not a number JSON"));
  }

  private void assertNoPassword(List<String> more) {
    for (String text : Stream.concat(more.stream(), logs.texts().stream()).toList()) {
      assertThat(text).doesNotContain(PASSWORD);
    }
  }
}
