package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RetriesTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

  private ApiServer server;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs.start();
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(logs);
  }

  @AfterEach
  void stop() {
    release.countDown();
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    server.close();
  }

  private RestConnection dump(String baseUrl, int maxRetries) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: env:LAB_TOKEN}
        profile:
          base_url: "%s"
          retry: {max_retries: %d, initial_backoff_ms: 1, max_backoff_ms: 5, max_retry_wait_secs: 120}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               error_at: /message, timeout_secs: 5}
        """
            .formatted(baseUrl, maxRetries),
        Map.of("LAB_TOKEN", "tok-SECRET-42"));
  }

  private RecordingSink read(RestConnection connection) throws Exception {
    return RestFixture.read(
        connection, "assets", Optional.empty(), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private List<String> retryWaits() {
    return logs.list.stream()
        .map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.startsWith("event=rest_request_retried"))
        .map(m -> m.substring(m.indexOf("wait_ms=")))
        .toList();
  }

  @Test
  void a503ThenSuccessLandsTheDumpComplete() throws Exception {
    server.on("/assets", ApiServer.json(503, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/assets");
  }

  @Test
  void a429WithRetryAfterInSecondsWaitsThatLong() throws Exception {
    server.on("/assets", ApiServer.json(429, "{}", "Retry-After", "1"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(retryWaits()).containsExactly("wait_ms=1000");
  }

  @Test
  void a429WithRetryAfterAsAnHttpDateWaitsUntilThen() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(1).atZone(ZoneOffset.UTC));
    server.on("/assets", ApiServer.json(429, "{}", "Retry-After", date), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(retryWaits()).containsExactly("wait_ms=1000");
  }

  @Test
  void aRetryAfterBeyondMaxRetryWaitFailsInsteadOfSleeping() throws Exception {
    server.on("/assets", ApiServer.json(429, "{}", "Retry-After", "3600"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets answered 429 asking to wait 3600s (Retry-After), beyond"
                + " retry.max_retry_wait_secs 120");
    assertThat(server.paths()).hasSize(1);
  }

  @Test
  void a401IsNotRetriedAndItsErrorTextIsQuoted() throws Exception {
    server.on("/assets", ApiServer.json(401, "{\"message\":\"Bad credentials\"}"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets answered 401: \"Bad credentials\" (check the instance's auth); not"
                + " retried");
    assertThat(server.paths()).hasSize(1);
  }

  @Test
  void a404IsNotRetried() throws Exception {
    server.on("/assets", ApiServer.json(404, "{}"));

    read(dump(server.url(), 3));

    assertThat(server.paths()).hasSize(1);
  }

  @Test
  void whenRetriesRunOutTheDumpIsAbortedNamingTheStatus() throws Exception {
    server.on("/assets", ApiServer.json(502, "{}"));

    RecordingSink sink = read(dump(server.url(), 2));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET " + server.url() + "/assets answered 502; gave up after 2 retries");
    assertThat(server.paths()).hasSize(3);
  }

  @Test
  void aConnectionErrorIsRetriedThenReported() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    RecordingSink sink = read(dump("http://127.0.0.1:" + port, 1));

    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET http://127.0.0.1:"
                + port
                + "/assets failed: connection refused; gave up after 1 retries");
    assertThat(retryWaits()).hasSize(1);
  }

  @Test
  void aStopDuringARetryBackOffEndsTheReadAtOnce() throws Exception {
    server.on("/assets", ApiServer.json(503, "{}", "Retry-After", "100"));
    Cancellation cancellation = new Cancellation();

    try (OpenConnection open =
        RestFixture.open(dump(server.url(), 3), Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Throwable> read =
          RestFixture.readInBackground(open, "assets", cancellation);
      await().atMost(Duration.ofSeconds(10)).until(() -> server.paths().size() == 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> !retryWaits().isEmpty());
      cancellation.cancel("stopping");

      assertThat(read.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
  }

  @Test
  void aStopDuringARequestAbortsIt() throws Exception {
    server.on(
        "/assets",
        exchange -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    Cancellation cancellation = new Cancellation();

    try (OpenConnection open =
        RestFixture.open(dump(server.url(), 3), Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Throwable> read =
          RestFixture.readInBackground(open, "assets", cancellation);
      await().atMost(Duration.ofSeconds(10)).until(() -> server.paths().size() == 1);
      cancellation.cancel("stopping");

      assertThat(read.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
  }

  @Test
  void credentialsNeverReachALogLineOrAnError() throws Exception {
    server.on(
        "/assets", ApiServer.json(503, "{}"), ApiServer.json(403, "{\"message\":\"forbidden\"}"));

    RecordingSink sink = read(dump(server.url(), 3));

    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-SECRET-42");
    assertThat(logs.list).isNotEmpty();
    assertThat(logs.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(message -> message.contains("tok-SECRET-42"));
    assertThat(sink.abortReason().orElseThrow()).doesNotContain("tok-SECRET-42");
    assertThat(dump(server.url(), 3).toString()).doesNotContain("tok-SECRET-42");
  }
}
