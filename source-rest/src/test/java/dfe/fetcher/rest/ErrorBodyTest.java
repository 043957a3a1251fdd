package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An answer that stalls is bounded by {@code timeout_secs} and ended by a cancellation: a non-2xx
 * body is read as a page is, and an answer the server holds back before its headers ends at once
 * when its tick is cancelled, from another thread than the reading one and without that thread
 * being interrupted by anyone else; a read cancelled before its request sends none.
 */
class ErrorBodyTest {

  private ApiServer server;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicBoolean headersSent = new AtomicBoolean();
  private final AtomicInteger asked = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  private RestConnection dump(int timeoutSecs) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               error_at: /message, timeout_secs: %d}
        """
            .formatted(server.url(), timeoutSecs));
  }

  /** A 400 whose headers promise a body of which only a few bytes come, then nothing. */
  private void answerWithAStalledErrorBody() {
    server.on(
        "/assets",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(400, 10_000);
          OutputStream out = exchange.getResponseBody();
          out.write("{\"message\":".getBytes(StandardCharsets.UTF_8));
          out.flush();
          headersSent.set(true);
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  @Test
  void anErrorBodyThatStallsFailsTheTickWithinTheTimeout() {
    answerWithAStalledErrorBody();

    RecordingSink sink =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> RestFixture.read(dump(1), "assets"));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets answered 400 (its body stalled for timeout_secs 1); not retried");
  }

  @Test
  void aStopWhileAnErrorBodyStallsEndsTheReadAtOnce() throws Exception {
    answerWithAStalledErrorBody();
    Cancellation cancellation = new Cancellation();

    try (OpenConnection open = RestFixture.open(dump(300), Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Throwable> read =
          RestFixture.readInBackground(open, "assets", cancellation);
      await().atMost(Duration.ofSeconds(10)).untilTrue(headersSent);
      cancellation.cancel("stopping");

      assertThat(read.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
  }

  /** An answer held back, headers and all, until the test ends. */
  private void holdTheAnswerBack() {
    server.on(
        "/assets",
        exchange -> {
          asked.incrementAndGet();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
  }

  @Test
  void aStopWhileTheServerHoldsItsAnswerEndsTheReadAtOnce() throws Exception {
    holdTheAnswerBack();
    Cancellation cancellation = new Cancellation();
    try (OpenConnection open = RestFixture.open(dump(300), Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Throwable> read =
          RestFixture.readInBackground(open, "assets", cancellation);
      await().atMost(Duration.ofSeconds(10)).until(() -> asked.get() == 1);

      cancellation.cancel("stopping");

      Throwable ended = read.get(5, TimeUnit.SECONDS);
      assertThat(ended).isInstanceOf(InterruptedException.class).hasMessage("cancelled: stopping");
    }
  }

  @Test
  void aReadCancelledBeforeItsRequestSendsNone() throws Exception {
    holdTheAnswerBack();
    Cancellation cancellation = new Cancellation();
    cancellation.cancel("reload");
    try (OpenConnection open = RestFixture.open(dump(300), Clock.systemUTC(), SourceMetrics.NONE)) {
      Throwable ended =
          RestFixture.readInBackground(open, "assets", cancellation).get(5, TimeUnit.SECONDS);

      assertThat(ended).isInstanceOf(InterruptedException.class);
      assertThat(asked).hasValue(0);
    }
  }
}
