package dfe.fetcher.connect;

import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.TickOutcome;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongBiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's units, run one at a time on a thread of the task's own: each when its connection's
 * interval has passed since its last tick began, the one due first first. One at a time, because a
 * task has one producer and, exactly once, one transaction open at a time: a snapshot's frames must
 * not share a transaction with another unit's records. Units side by side are tasks side by side
 * ({@code tasks.max}).
 *
 * <p>A unit is first due when its last tick, in a task before this one, says ({@link LastTicks}),
 * not at once. A tick starts only while the worker polls ({@link PollActivity}): a paused connector
 * fetches nothing new.
 */
final class TaskLoop implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.connect");

  /** What the loop tells about each tick: when it begins, and how it ended. */
  interface TickObserver {
    void started(BoundUnit unit, long millis);

    void ended(BoundUnit unit, TickOutcome outcome);
  }

  private final Function<BoundUnit, TickOutcome> tick;
  private final List<Due> units = new ArrayList<>();
  private final Clock clock;
  private final PollActivity polls;
  private final TickObserver observer;
  private final Object wake = new Object();
  private volatile boolean stopping;

  private static final class Due {
    final BoundUnit unit;
    final Duration interval;
    long nextMillis;

    Due(BoundUnit unit, Duration interval, long nextMillis) {
      this.unit = unit;
      this.interval = interval;
      this.nextMillis = nextMillis;
    }
  }

  /**
   * @param tick runs one tick of a unit (the task's {@code UnitRunner})
   * @param intervals each connection's interval, by connection id
   * @param firstDue when a unit is first due, given its store and interval, in epoch milliseconds
   */
  TaskLoop(
      Function<BoundUnit, TickOutcome> tick,
      List<BoundUnit> units,
      Map<String, Duration> intervals,
      ToLongBiFunction<String, Duration> firstDue,
      Clock clock,
      PollActivity polls,
      TickObserver observer) {
    this.tick = tick;
    this.clock = clock;
    this.polls = polls;
    this.observer = observer;
    long now = clock.millis();
    for (BoundUnit unit : units) {
      Duration interval = intervals.get(unit.spec().connection());
      long due = firstDue.applyAsLong(unit.store(), interval);
      if (due > now) {
        LOG.info(
            "event=unit_first_due unit={} in_secs={} note=\"its last tick began one interval"
                + " before\"",
            unit.store(),
            (due - now + 999) / 1000);
      }
      this.units.add(new Due(unit, interval, due));
    }
  }

  @Override
  public void run() {
    try {
      while (!stopping && !units.isEmpty()) {
        Due next = units.stream().min(Comparator.comparingLong(due -> due.nextMillis)).get();
        try {
          if (!waitUntil(next.nextMillis) || !polls.awaitPolling(() -> stopping)) {
            break;
          }
        } catch (InterruptedException e) {
          // An interrupt is a stop only when one was asked for; a stray one (a tick's source
          // re-raising it) must not end the task's units.
          continue;
        }
        long started = clock.millis();
        observer.started(next.unit, started);
        TickOutcome outcome = tick.apply(next.unit);
        next.nextMillis = started + next.interval.toMillis();
        observer.ended(next.unit, outcome);
      }
    } finally {
      LOG.info("event=task_loop_ended units={}", units.size());
    }
  }

  /** Waits until {@code millis}; false when stopped first. */
  private boolean waitUntil(long millis) throws InterruptedException {
    synchronized (wake) {
      long left;
      while (!stopping && (left = millis - clock.millis()) > 0) {
        wake.wait(left);
      }
    }
    return !stopping;
  }

  /** Takes no more ticks; the caller cancels the running one. */
  void stop() {
    stopping = true;
    synchronized (wake) {
      wake.notifyAll();
    }
    polls.wake();
  }
}
