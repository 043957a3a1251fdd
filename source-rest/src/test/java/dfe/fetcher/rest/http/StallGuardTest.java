package dfe.fetcher.rest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The stall bound times reads in progress only, on a clock the test moves. */
class StallGuardTest {

  /** A body that gives what the test writes, blocks while there is nothing, fails once closed. */
  private static final class Body extends InputStream {
    private static final int CLOSED = -2;
    private final BlockingQueue<Integer> bytes = new LinkedBlockingQueue<>();

    void write(int b) {
      bytes.add(b);
    }

    @Override
    public int read() throws IOException {
      try {
        int b = bytes.take();
        if (b == CLOSED) {
          bytes.add(CLOSED);
          throw new IOException("closed");
        }
        return b;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }

    @Override
    public void close() {
      bytes.add(CLOSED);
    }
  }

  private final AtomicLong nanos = new AtomicLong(1_000);
  private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    watchdog.shutdownNow();
  }

  @Test
  void timeSpentBetweenReadsIsNotAStall() throws Exception {
    Body server = new Body();
    StallGuard guard = new StallGuard(server, 1, watchdog, nanos::get);
    server.write('a');
    assertThat(guard.read()).isEqualTo('a');

    // The reader is away (the sink waits for Kafka's acknowledgements) for ten timeouts.
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
    guard.check();

    assertThat(guard.stalled()).isFalse();
    server.write('b');
    assertThat(guard.read()).isEqualTo('b');
  }

  @Test
  void aReadWaitingLongerThanTheTimeoutIsAStallAndFails() throws Exception {
    Body server = new Body();
    StallGuard guard = new StallGuard(server, 1, watchdog, nanos::get);
    CompletableFuture<Integer> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return guard.read();
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    await().atMost(Duration.ofSeconds(10)).until(guard::reading);

    nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
    guard.check();

    assertThat(guard.stalled()).isTrue();
    assertThatThrownBy(() -> read.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IOException.class);
  }
}
