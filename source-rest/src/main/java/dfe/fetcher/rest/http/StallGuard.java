package dfe.fetcher.rest.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A response body that is closed when a read has waited {@code timeout_secs} for a byte: the
 * request's own timeout ends when the response starts, and a body that stalls mid-way would hold
 * the tick for ever. Only reads in progress are timed: while the reader is away (the sink waiting
 * for Kafka's or Connect's acknowledgements) the server is not stalling, it is waiting for us. The
 * read that was waiting then fails with an {@link IOException}; {@link #stalled} tells that failure
 * from others.
 */
public final class StallGuard extends FilterInputStream {

  private static final long NOT_READING = Long.MIN_VALUE;

  private final long timeoutNanos;
  private final LongSupplier nanoTime;
  private final ScheduledFuture<?> check;
  private volatile long readStarted = NOT_READING;
  private volatile boolean stalled;

  /** Watches {@code in} on {@code watchdog} until it is closed. */
  public StallGuard(InputStream in, long timeoutSecs, ScheduledExecutorService watchdog) {
    this(in, timeoutSecs, watchdog, System::nanoTime);
  }

  StallGuard(
      InputStream in, long timeoutSecs, ScheduledExecutorService watchdog, LongSupplier nanoTime) {
    super(in);
    this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSecs);
    this.nanoTime = nanoTime;
    long period = Math.max(50, TimeUnit.SECONDS.toMillis(timeoutSecs) / 4);
    this.check =
        watchdog.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
  }

  public boolean stalled() {
    return stalled;
  }

  /** Whether a read is waiting now. */
  boolean reading() {
    return readStarted != NOT_READING;
  }

  /** Closes the body when the read in progress has waited longer than the timeout. */
  void check() {
    long started = readStarted;
    if (started != NOT_READING && nanoTime.getAsLong() - started > timeoutNanos) {
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
    readStarted = nanoTime.getAsLong();
    try {
      return in.read();
    } finally {
      readStarted = NOT_READING;
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    readStarted = nanoTime.getAsLong();
    try {
      return in.read(buffer, offset, length);
    } finally {
      readStarted = NOT_READING;
    }
  }

  @Override
  public void close() throws IOException {
    check.cancel(false);
    in.close();
  }
}
