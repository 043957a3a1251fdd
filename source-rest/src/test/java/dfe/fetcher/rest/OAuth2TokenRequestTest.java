package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OAuth2 token request is bounded as a page is ({@code timeout_secs}, a size cap, the
 * cancellation), retried as a page is on 5xx, 429 and connection errors, and no unit waits on a
 * lock while another fetches a token.
 */
class OAuth2TokenRequestTest {

  private ApiServer server;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger tokenRequests = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  private RestConnection connection(int timeoutSecs, int maxRetries) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: oauth2_client_credentials, token_url: "%s/oauth/token", client_id: app,
               client_secret: s3cret}
        profile:
          base_url: "%s"
          retry: {max_retries: %d, initial_backoff_ms: 1, max_backoff_ms: 5}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               timeout_secs: %d}
            - {unit: users, shape: dump, path: /users, rows: {decoder: json_array},
               timeout_secs: %d}
        """
            .formatted(server.url(), server.url(), maxRetries, timeoutSecs, timeoutSecs));
  }

  /** A 200 whose headers promise a token body of which only a few bytes come, then nothing. */
  private void stalledToken(HttpExchange exchange) throws IOException {
    tokenRequests.incrementAndGet();
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 1_000);
    OutputStream out = exchange.getResponseBody();
    out.write("{\"access_token\":".getBytes(StandardCharsets.UTF_8));
    out.flush();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String tokenEndpoint() {
    return "the token endpoint " + server.url() + "/oauth/token";
  }

  @Test
  void aTokenBodyThatStallsFailsTheTickWithinTheTimeout() {
    server.on("/oauth/token", this::stalledToken);
    server.on("/assets", ok("[]"));

    RecordingSink sink =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> RestFixture.read(connection(1, 0), "assets"));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: "
                + tokenEndpoint()
                + " failed: its body stalled for timeout_secs 1; no retries configured");
  }

  @Test
  void aTokenEndpointAnswering503OnceIsAskedAgain() throws Exception {
    server.on(
        "/oauth/token",
        ApiServer.json(503, "{}"),
        ok("{\"access_token\":\"at-1\",\"expires_in\":3600}"));
    server.on("/assets", ok("[{\"id\":1}]"));

    RecordingSink sink = RestFixture.read(connection(5, 2), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/oauth/token", "/oauth/token", "/assets");
    assertThat(server.requests().get(2).header("Authorization")).isEqualTo("Bearer at-1");
  }

  @Test
  void aTokenEndpointThatKeepsFailingGivesUpAfterTheRetries() throws Exception {
    server.on("/oauth/token", ApiServer.json(502, "{}"));
    server.on("/assets", ok("[]"));

    RecordingSink sink = RestFixture.read(connection(5, 2), "assets");

    assertThat(sink.abortReason())
        .hasValue("lab.assets: " + tokenEndpoint() + " answered 502; gave up after 2 retries");
    assertThat(server.paths()).containsExactly("/oauth/token", "/oauth/token", "/oauth/token");
  }

  @Test
  void anOversizedTokenBodyIsRefusedWithoutReadingItAll() throws Exception {
    String body = "{\"access_token\":\"at-1\",\"padding\":\"" + "x".repeat(1024 * 1024) + "\"}";
    server.on("/oauth/token", ok(body));
    server.on("/assets", ok("[]"));

    RecordingSink sink = RestFixture.read(connection(5, 0), "assets");

    assertThat(sink.abortReason())
        .hasValue("lab.assets: " + tokenEndpoint() + " answered a body longer than 65536 bytes");
    assertThat(server.paths()).containsExactly("/oauth/token");
  }

  @Test
  void aUnitWaitingForAnotherUnitsTokenRequestStopsWhenItsTickIsCancelled() throws Exception {
    server.on("/oauth/token", this::stalledToken);
    server.on("/assets", ok("[]"));
    server.on("/users", ok("[]"));
    Cancellation assetsTick = new Cancellation();
    Cancellation usersTick = new Cancellation();

    try (OpenConnection open =
        RestFixture.open(connection(300, 0), Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Throwable> assets =
          RestFixture.readInBackground(open, "assets", assetsTick);
      await().atMost(Duration.ofSeconds(10)).until(() -> tokenRequests.get() == 1);
      AtomicReference<Thread> usersThread = new AtomicReference<>();
      CompletableFuture<Throwable> users =
          CompletableFuture.supplyAsync(
              () -> {
                usersThread.set(Thread.currentThread());
                return readOrFailure(open, "users", usersTick);
              });
      // users waits for the token assets is fetching: on a lock before, on a future now.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  usersThread.get() != null
                      && usersThread.get().getState() != Thread.State.RUNNABLE
                      && usersThread.get().getState() != Thread.State.NEW);

      usersTick.cancel("stopping");

      assertThat(users.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
      assertThat(assets).isNotDone();
      assertThat(tokenRequests).hasValue(1);
      assetsTick.cancel("stopping");
      assertThat(assets.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
  }

  private static Throwable readOrFailure(
      OpenConnection open, String unit, Cancellation cancellation) {
    try {
      open.source(unit).read(Optional.empty(), new RecordingSink(), cancellation);
      return null;
    } catch (Exception e) {
      return e;
    }
  }
}
