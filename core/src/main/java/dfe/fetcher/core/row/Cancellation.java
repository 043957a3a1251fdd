package dfe.fetcher.core.row;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How the driver stops a source that is blocked: on a stop signal or a reload it {@linkplain
 * #cancel cancels} the tick's cancellation, which runs every action a source registered for what it
 * blocks in (cancel a JDBC statement, abort an HTTP request, close a channel) and wakes every
 * {@link #sleep} (a retry back-off). The driver also interrupts the tick's thread.
 *
 * <p>A source registers an action around each blocking call and closes the registration once the
 * call returned: {@code try (var r = cancellation.onCancel(statement::cancel)) { rs =
 * statement.executeQuery(); }}. An action registered after the cancellation runs at once, on the
 * registering thread. Actions must not block; an action that throws is ignored (the tick is ending
 * anyway). Thread-safe.
 */
public final class Cancellation {

  /** Closes a registered action: the blocking call returned, so there is nothing to cancel. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  private final CountDownLatch cancelled = new CountDownLatch(1);
  private final List<Runnable> actions = new ArrayList<>();
  private volatile String reason = "";

  /** A fresh cancellation, not cancelled. */
  public Cancellation() {}

  /** Runs every registered action and wakes every sleeper; later calls do nothing. */
  public void cancel(String why) {
    List<Runnable> toRun;
    synchronized (actions) {
      if (cancelled.getCount() == 0) {
        return;
      }
      reason = why;
      cancelled.countDown();
      toRun = new ArrayList<>(actions);
      actions.clear();
    }
    toRun.forEach(Cancellation::runQuietly);
  }

  public boolean isCancelled() {
    return cancelled.getCount() == 0;
  }

  /** Why the tick was cancelled ({@code stopping}, {@code reload}); empty while it is not. */
  public String reason() {
    return reason;
  }

  /** Registers {@code action} to run on cancellation; runs it now if already cancelled. */
  public Registration onCancel(Runnable action) {
    synchronized (actions) {
      if (cancelled.getCount() != 0) {
        actions.add(action);
        return () -> {
          synchronized (actions) {
            actions.remove(action);
          }
        };
      }
    }
    runQuietly(action);
    return () -> {};
  }

  /**
   * Waits {@code duration} (a retry back-off), returning early when cancelled.
   *
   * @throws InterruptedException when cancelled before or during the wait, or interrupted
   */
  public void sleep(Duration duration) throws InterruptedException {
    if (cancelled.await(duration.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new InterruptedException("cancelled: " + reason);
    }
  }

  /** Throws when cancelled: for a source to call between two pieces of work. */
  public void throwIfCancelled() throws InterruptedException {
    if (isCancelled()) {
      throw new InterruptedException("cancelled: " + reason);
    }
  }

  private static void runQuietly(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException ignored) {
      // The tick is ending; an action that cannot cancel leaves the thread's interrupt to do it.
    }
  }
}
