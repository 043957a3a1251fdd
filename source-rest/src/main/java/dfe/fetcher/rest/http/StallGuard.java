package dfe.fetcher.rest.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A response body that is closed when no byte arrived for {@code timeout_secs}: the request's own
 * timeout ends when the response starts, and a body that stalls mid-way would hold the tick for
 * ever. The read that was waiting then fails with an {@link IOException}; {@link #stalled} tells
 * that failure from others.
 */
public final class StallGuard extends FilterInputStream {

  private final long timeoutNanos;
  private final ScheduledFuture<?> check;
  private volatile long lastProgress = System.nanoTime();
  private volatile boolean stalled;

  StallGuard(InputStream in, long timeoutSecs, ScheduledExecutorService watchdog) {
    super(in);
    this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSecs);
    long period = Math.max(50, TimeUnit.SECONDS.toMillis(timeoutSecs) / 4);
    this.check =
        watchdog.scheduleWithFixedDelay(
            this::closeIfStalled, period, period, TimeUnit.MILLISECONDS);
  }

  public boolean stalled() {
    return stalled;
  }

  private void closeIfStalled() {
    if (System.nanoTime() - lastProgress > timeoutNanos) {
      stalled = true;
      check.cancel(false);
      try {
        in.close();
      } catch (IOException ignored) {
        // Closing is all that can be done; the reader's read fails either way.
      }
    }
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    lastProgress = System.nanoTime();
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    lastProgress = System.nanoTime();
    return n;
  }

  @Override
  public void close() throws IOException {
    check.cancel(false);
    in.close();
  }
}
