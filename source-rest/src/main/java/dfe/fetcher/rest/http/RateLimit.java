package dfe.fetcher.rest.http;

import dfe.fetcher.core.row.Cancellation;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * {@code rate.requests_per_sec}: requests of one unit spaced at least {@code 1/rate} apart, across
 * its pages, windows and ticks (the unit's source keeps one for its life). The wait is a {@link
 * Cancellation#sleep}, so a stop ends it.
 */
public final class RateLimit {

  private final long spacingNanos;
  private long nextAllowed = Long.MIN_VALUE;

  public RateLimit(OptionalDouble requestsPerSec) {
    this.spacingNanos =
        requestsPerSec.isPresent() ? (long) (1_000_000_000L / requestsPerSec.getAsDouble()) : 0;
  }

  void acquire(Cancellation cancellation) throws InterruptedException {
    if (spacingNanos == 0) {
      cancellation.throwIfCancelled();
      return;
    }
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      long start = nextAllowed == Long.MIN_VALUE ? now : Math.max(now, nextAllowed);
      nextAllowed = start + spacingNanos;
      wait = start - now;
    }
    if (wait > 0) {
      cancellation.sleep(Duration.ofNanos(wait));
    } else {
      cancellation.throwIfCancelled();
    }
  }
}
