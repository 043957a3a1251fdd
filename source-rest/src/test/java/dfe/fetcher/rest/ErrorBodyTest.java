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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A non-2xx body is read as a page is: bounded by {@code timeout_secs} on a stall and ended by a
 * cancellation.
 */
class ErrorBodyTest {

  private ApiServer server;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicBoolean headersSent = new AtomicBoolean();

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
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  open.source("assets").read(Optional.empty(), new RecordingSink(), cancellation);
                  return null;
                } catch (Exception e) {
                  return e;
                }
              });
      await().atMost(Duration.ofSeconds(10)).untilTrue(headersSent);
      cancellation.cancel("stopping");

      assertThat(read.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
  }
}
