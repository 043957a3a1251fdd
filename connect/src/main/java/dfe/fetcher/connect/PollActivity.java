package dfe.fetcher.connect;

import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Whether the worker is asking the task for records. Connect has no pause callback on a {@code
 * SourceTask}: a paused task is simply not polled. So the task's tick loop starts a tick only while
 * {@link DfeSourceTask#poll} was called within {@link #RECENT}; a paused (or not yet polling) task
 * fetches nothing new, and a tick already running is held by the transport's bounded queue and its
 * acknowledgements.
 */
final class PollActivity {

  /** How recent a poll must be for a tick to start: poll waits at most 500 ms for records. */
  static final Duration RECENT = Duration.ofSeconds(2);

  private final Clock clock;
  private long lastPollMillis = Long.MIN_VALUE;

  PollActivity(Clock clock) {
    this.clock = clock;
  }

  /** The worker asked for records now. */
  synchronized void polled() {
    lastPollMillis = clock.millis();
    notifyAll();
  }

  /** Whether the worker asked for records within {@link #RECENT}. */
  synchronized boolean polledRecently() {
    return lastPollMillis != Long.MIN_VALUE && clock.millis() - lastPollMillis <= RECENT.toMillis();
  }

  /**
   * Waits until the worker polls (again), checking {@code stopping} at least every 200 ms.
   *
   * @return false when stopping came first
   */
  synchronized boolean awaitPolling(BooleanSupplier stopping) throws InterruptedException {
    while (!stopping.getAsBoolean() && !polledRecently()) {
      wait(200);
    }
    return !stopping.getAsBoolean();
  }

  /** Wakes a waiter, for it to see a stop. */
  synchronized void wake() {
    notifyAll();
  }
}
