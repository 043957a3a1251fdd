package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request whose answer the server holds back: a cancellation ends the read at once, from another
 * thread than the reading one and without that thread being interrupted by anyone else, and a read
 * cancelled before its request sends none.
 */
class HeldAnswerTest {

  private ApiServer server;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger asked = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
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

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  private RestConnection dump() {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               timeout_secs: 300}
        """
            .formatted(server.url()));
  }

  @Test
  void aStopWhileTheServerHoldsItsAnswerEndsTheReadAtOnce() throws Exception {
    Cancellation cancellation = new Cancellation();
    try (OpenConnection open = RestFixture.open(dump(), Clock.systemUTC(), SourceMetrics.NONE)) {
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
    Cancellation cancellation = new Cancellation();
    cancellation.cancel("reload");
    try (OpenConnection open = RestFixture.open(dump(), Clock.systemUTC(), SourceMetrics.NONE)) {
      Throwable ended =
          RestFixture.readInBackground(open, "assets", cancellation).get(5, TimeUnit.SECONDS);

      assertThat(ended).isInstanceOf(InterruptedException.class);
      assertThat(asked).hasValue(0);
    }
  }
}
