package dfe.fetcher.rest.http;

import dfe.fetcher.core.row.Cancellation;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ConnectionBudget} of an open connection, shared by all its units: a request first
 * takes one of the {@code max_concurrent_requests} slots (in the order they asked), then a token of
 * the bucket that refills at {@code requests_per_sec} up to {@code burst}. Both waits end at once
 * when the tick is cancelled. The slot is given back when the answer's body is closed, so a
 * streamed body counts as in flight until it is read.
 */
public final class BudgetGate {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");
  private static final long SLOT_POLL_MILLIS = 50;

  /** A slot held by one request; closing it more than once gives it back once. */
  public interface Slot extends AutoCloseable {
    @Override
    void close();
  }

  private static final Slot NO_SLOT = () -> {};

  private final String connection;
  private final Optional<Semaphore> slots;
  private final double tokensPerNano;
  private final double burst;
  private double tokens;
  private long refilledAt;

  BudgetGate(ConnectionBudget budget, String connection) {
    this.connection = connection;
    this.slots =
        budget.maxConcurrentRequests().stream().mapToObj(n -> new Semaphore(n, true)).findFirst();
    this.tokensPerNano =
        budget.requestsPerSec().isPresent() ? budget.requestsPerSec().getAsDouble() / 1e9 : 0;
    this.burst = budget.burst();
    this.tokens = budget.burst();
    this.refilledAt = System.nanoTime();
  }

  /**
   * Waits for a slot and a token.
   *
   * @throws InterruptedException when the tick is cancelled (or the thread interrupted) meanwhile
   */
  public Slot enter(String source, Cancellation cancellation) throws InterruptedException {
    Slot slot = slot(source, cancellation);
    try {
      token(cancellation);
    } catch (InterruptedException | RuntimeException e) {
      slot.close();
      throw e;
    }
    return slot;
  }

  private Slot slot(String source, Cancellation cancellation) throws InterruptedException {
    if (slots.isEmpty()) {
      return NO_SLOT;
    }
    Semaphore semaphore = slots.get();
    if (!semaphore.tryAcquire()) {
      LOG.debug(
          "event=rest_request_queued unit={} connection={} reason=max_concurrent_requests",
          source,
          connection);
      while (!semaphore.tryAcquire(SLOT_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
        cancellation.throwIfCancelled();
      }
    }
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        semaphore.release();
      }
    };
  }

  private void token(Cancellation cancellation) throws InterruptedException {
    if (tokensPerNano == 0) {
      cancellation.throwIfCancelled();
      return;
    }
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      tokens = Math.min(burst, tokens + (now - refilledAt) * tokensPerNano);
      refilledAt = now;
      tokens -= 1;
      waitNanos = tokens >= 0 ? 0 : (long) Math.ceil(-tokens / tokensPerNano);
    }
    if (waitNanos > 0) {
      cancellation.sleep(Duration.ofNanos(waitNanos));
    } else {
      cancellation.throwIfCancelled();
    }
  }
}
