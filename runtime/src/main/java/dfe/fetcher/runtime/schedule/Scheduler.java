package dfe.fetcher.runtime.schedule;

import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every connection's units on its interval, starting at once, with at most {@code
 * maxConcurrentFetches} connections running at the same time. The units of one connection run one
 * after the other, and a connection's next run starts {@code interval} after its previous one
 * ended, so runs of one connection never overlap. A unit's failure is its own: the connection's
 * other units and the other connections go on.
 *
 * <p>Stopping is bounded by the grace: {@link #requestStop} cancels every running tick at once
 * (which ends what their sources block in), and {@link #stop} and {@link #runOnce} wait at most the
 * grace after it. Threads are daemons, so a source that ignores cancellation cannot keep the
 * process alive once the service has given up on it.
 */
public final class Scheduler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.schedule");
  private static final long WAIT_SLICE_MILLIS = 100;

  /** How long after a wake its run starts: the writes of a burst are read by one run. */
  static final long WAKE_DELAY_MILLIS = 20;

  private final UnitRunner runner;
  private final Duration grace;
  private final Clock clock;
  private final TickJitter jitter;
  private final TickHistory history = new TickHistory();
  private final ScheduledThreadPoolExecutor executor;
  private final Map<String, ScheduledFuture<?>> schedules = new ConcurrentHashMap<>();
  private final Map<String, ReentrantLock> runs = new ConcurrentHashMap<>();
  private final Map<String, ConnectionJob> scheduledJobs = new ConcurrentHashMap<>();

  /** Jobs taken off the schedule: a run of one still going stops before its next unit. */
  private final Set<ConnectionJob> retired =
      Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));

  /**
   * By store: whether the unit's source woke it (a tailed file was written) since its last tick
   * began. A woken unit is read at once by a run of its own, one run at a time per connection.
   */
  private final Map<String, AtomicBoolean> woken = new ConcurrentHashMap<>();

  private volatile long stopRequestedAt;

  public Scheduler(UnitRunner runner, int maxConcurrentFetches, Duration grace) {
    this(runner, maxConcurrentFetches, grace, Clock.systemUTC());
  }

  /** A scheduler whose {@link #history} tells times by {@code clock}. */
  public Scheduler(UnitRunner runner, int maxConcurrentFetches, Duration grace, Clock clock) {
    this(runner, maxConcurrentFetches, grace, clock, TickJitter.NONE);
  }

  /**
   * A scheduler whose {@link #history} tells times by {@code clock} and that starts each connection
   * {@code jitter}'s offset after it is scheduled.
   */
  public Scheduler(
      UnitRunner runner, int maxConcurrentFetches, Duration grace, Clock clock, TickJitter jitter) {
    this.runner = runner;
    this.grace = grace;
    this.clock = clock;
    this.jitter = jitter;
    this.executor = new ScheduledThreadPoolExecutor(maxConcurrentFetches, namedThreads());
    this.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.executor.setRemoveOnCancelPolicy(true);
  }

  /** Each unit's last tick and each scheduled connection's next run. */
  public TickHistory history() {
    return history;
  }

  /** Schedules every job, each starting now (plus its jitter offset). */
  public void start(List<ConnectionJob> jobs) {
    jobs.forEach(this::schedule);
  }

  /**
   * Schedules {@code job}, starting now plus its {@link TickJitter#offset}; its connection must not
   * be scheduled already. The offset shifts the first run and with it every later one, since each
   * run starts one interval after the previous ended.
   */
  public void schedule(ConnectionJob job) {
    Duration offset = jitter.offset(job.connection(), job.interval());
    history.nextRunAt(job.connection(), clock.instant().plus(offset));
    ScheduledFuture<?> schedule =
        executor.scheduleWithFixedDelay(
            () -> runScheduled(job),
            offset.toMillis(),
            job.interval().toMillis(),
            TimeUnit.MILLISECONDS);
    if (schedules.putIfAbsent(job.connection(), schedule) != null) {
      schedule.cancel(false);
      throw new IllegalStateException("connection " + job.connection() + " is already scheduled");
    }
    scheduledJobs.put(job.connection(), job);
    for (BoundUnit unit : job.units()) {
      // A flag of its own: one a job taken off the schedule left set would never be set again.
      AtomicBoolean flag = new AtomicBoolean();
      woken.put(unit.store(), flag);
      unit.source().wakeOn(() -> wake(job, unit.store(), flag));
    }
    LOG.info(
        "event=connection_scheduled connection={} units={} interval_secs={} jitter_ms={}",
        job.connection(),
        job.units().size(),
        job.interval().toSeconds(),
        offset.toMillis());
  }

  /**
   * Takes {@code connection} off the schedule, cancels its running tick and waits up to the grace
   * for it to end. True when it is not running any more.
   */
  public boolean unschedule(String connection, String reason) throws InterruptedException {
    ScheduledFuture<?> schedule = schedules.remove(connection);
    if (schedule != null) {
      schedule.cancel(false);
    }
    history.noNextRun(connection);
    ConnectionJob job = scheduledJobs.remove(connection);
    if (job != null) {
      // Retired before cancelled: a unit starting now either sees it or is cancelled below.
      retired.add(job);
    }
    runner.cancelConnection(connection, reason);
    ReentrantLock run = runs.computeIfAbsent(connection, c -> new ReentrantLock());
    if (run.tryLock(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      run.unlock();
      return true;
    }
    LOG.warn(
        "event=connection_stop_timeout connection={} grace_secs={} note=\"closing it anyway\"",
        connection,
        grace.toSeconds());
    return false;
  }

  /**
   * Runs every job once, concurrently as far as the limit allows, and returns each unit's outcome
   * keyed by store, in job and unit order. After {@link #requestStop} it waits at most the grace; a
   * unit still running then is reported failed.
   */
  public Map<String, TickOutcome> runOnce(List<ConnectionJob> jobs) throws InterruptedException {
    List<Future<Map<String, TickOutcome>>> futures = new ArrayList<>();
    for (ConnectionJob job : jobs) {
      try {
        futures.add(executor.submit(() -> runConnection(job)));
      } catch (RejectedExecutionException e) {
        // A unit already running asked for a stop, which shut the pool: this one never ran.
        futures.add(CompletableFuture.completedFuture(Map.of()));
      }
    }
    Map<String, TickOutcome> outcomes = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      Map<String, TickOutcome> outcome = awaitRun(futures.get(i));
      if (outcome == null) {
        for (BoundUnit unit : jobs.get(i).units()) {
          outcomes.putIfAbsent(
              unit.store(),
              new TickOutcome.Failed(
                  "still running " + grace.toSeconds() + "s after the stop; left behind"));
        }
      } else {
        outcomes.putAll(outcome);
      }
      // A unit a stop kept from starting (after another unit of its connection, or a connection
      // the stop took off the queue) has an outcome too: it did not run.
      for (BoundUnit unit : jobs.get(i).units()) {
        outcomes.putIfAbsent(unit.store(), new TickOutcome.Stopped());
      }
    }
    return outcomes;
  }

  /** The run's outcomes, or null when it did not end within the grace after a stop. */
  private Map<String, TickOutcome> awaitRun(Future<Map<String, TickOutcome>> run)
      throws InterruptedException {
    while (true) {
      long requested = stopRequestedAt;
      if (requested != 0 && System.nanoTime() - requested > grace.toNanos()) {
        return run.isDone() ? result(run) : null;
      }
      try {
        return run.get(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        // Check for a stop and wait another slice.
      } catch (CancellationException e) {
        // Still queued when the stop shut the pool down: it never ran.
        return Map.of();
      } catch (ExecutionException e) {
        throw unexpected(e);
      }
    }
  }

  private IllegalStateException unexpected(ExecutionException failure) {
    if (failure.getCause() instanceof VirtualMachineError error) {
      runner.halt("a connection run", error);
    }
    return new IllegalStateException("a connection run failed unexpectedly", failure.getCause());
  }

  private Map<String, TickOutcome> result(Future<Map<String, TickOutcome>> run)
      throws InterruptedException {
    try {
      return run.get();
    } catch (CancellationException e) {
      return Map.of();
    } catch (ExecutionException e) {
      throw unexpected(e);
    }
  }

  /**
   * One scheduled run. Whatever escapes it would cancel the connection's schedule without a word,
   * so it is logged here. An error of the JVM that got past the unit's containment ends the process
   * ({@link UnitRunner#halt}): a connection is never left unscheduled with health green.
   */
  private void runScheduled(ConnectionJob job) {
    try {
      history.noNextRun(job.connection());
      runConnection(job);
      if (stopRequestedAt == 0 && !retired.contains(job)) {
        // scheduleWithFixedDelay starts the next run one interval after this one returns.
        history.nextRunAt(job.connection(), clock.instant().plus(job.interval()));
      }
    } catch (InterruptedException e) {
      // Stopping while waiting for the connection's previous run: nothing ran.
      Thread.currentThread().interrupt();
    } catch (VirtualMachineError e) {
      runner.halt("connection " + job.connection(), e);
      throw e;
    } catch (Throwable e) {
      LOG.error(
          "event=connection_run_failed connection={} error=\"{}\"",
          job.connection(),
          e.toString(),
          e);
    }
  }

  private Map<String, TickOutcome> runConnection(ConnectionJob job) throws InterruptedException {
    ReentrantLock run = runs.computeIfAbsent(job.connection(), c -> new ReentrantLock());
    run.lockInterruptibly();
    try {
      return runUnits(job, unit -> true);
    } finally {
      run.unlock();
      afterRun(job);
    }
  }

  /**
   * Ticks the job's units that {@code chosen} takes, in order, until a stop; the caller holds the
   * connection's run lock. A unit's wake flag is cleared as its tick starts: a wake during the tick
   * (a line written after its last look) asks for another.
   */
  private Map<String, TickOutcome> runUnits(ConnectionJob job, Predicate<BoundUnit> chosen) {
    Map<String, TickOutcome> outcomes = new LinkedHashMap<>();
    for (BoundUnit unit : job.units()) {
      if (Thread.currentThread().isInterrupted() || stopping(job)) {
        break;
      }
      if (!chosen.test(unit)) {
        continue;
      }
      AtomicBoolean flag = woken.get(unit.store());
      if (flag != null) {
        flag.set(false);
      }
      history.tickStarted(unit.store(), clock.instant());
      TickOutcome outcome = runner.runTick(unit, () -> retired.contains(job));
      history.tickEnded(unit.store(), clock.instant(), outcome);
      outcomes.put(unit.store(), outcome);
      if (outcome instanceof TickOutcome.Stopped) {
        break;
      }
    }
    return outcomes;
  }

  private boolean stopping(ConnectionJob job) {
    return stopRequestedAt != 0 || retired.contains(job);
  }

  /**
   * A unit's source woke it: the connection gets a run of the woken units at once, unless one is
   * asked for already. Called on the source's thread; returns at once.
   */
  private void wake(ConnectionJob job, String store, AtomicBoolean flag) {
    if (!stopping(job) && !lastTickFailed(store) && flag.compareAndSet(false, true)) {
      submitWoken(job);
    }
  }

  private void submitWoken(ConnectionJob job) {
    try {
      // A moment's delay gathers a burst of writes into one run.
      executor.schedule(() -> runWoken(job), WAKE_DELAY_MILLIS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Stopping: the pool takes no more runs, and none is needed.
    }
  }

  /**
   * A run of the connection's woken units. While another run of the connection goes on it does not
   * wait for it (that would hold a thread of the pool): that run asks for this one again as it
   * ends, since the flags are still set.
   */
  private void runWoken(ConnectionJob job) {
    ReentrantLock run = runs.computeIfAbsent(job.connection(), c -> new ReentrantLock());
    if (!run.tryLock()) {
      return;
    }
    try {
      runUnits(job, this::isWoken);
    } catch (VirtualMachineError e) {
      runner.halt("connection " + job.connection(), e);
      throw e;
    } catch (RuntimeException e) {
      LOG.error(
          "event=connection_run_failed connection={} error=\"{}\"",
          job.connection(),
          e.toString(),
          e);
    } finally {
      run.unlock();
      afterRun(job);
    }
  }

  private boolean isWoken(BoundUnit unit) {
    AtomicBoolean flag = woken.get(unit.store());
    return flag != null && flag.get() && !lastTickFailed(unit.store());
  }

  /**
   * Whether {@code store}'s last tick failed. A wake says there is more to read; it does not say
   * that what failed (the output, the checkpoints) works again. Such a unit is tried again on its
   * interval, not on every write to its files: a tail whose file is written without a pause would
   * otherwise fail a tick, and log it, every {@value #WAKE_DELAY_MILLIS} ms.
   */
  private boolean lastTickFailed(String store) {
    return history.of(store).lastOutcome().filter(TickOutcome.Failed.class::isInstance).isPresent();
  }

  /** After a run, one more for the units woken while it went on. */
  private void afterRun(ConnectionJob job) {
    if (!stopping(job) && scheduledJobs.get(job.connection()) == job) {
      if (job.units().stream().anyMatch(this::isWoken)) {
        submitWoken(job);
      }
    }
  }

  /** Cancels every running tick and stops starting new ones; returns at once. */
  public void requestStop() {
    if (stopRequestedAt == 0) {
      stopRequestedAt = System.nanoTime() | 1;
    }
    executor.shutdown();
    runner.cancelAll("stopping");
  }

  /**
   * Stops: cancels every running tick, waits half the grace for them to end, interrupts the ones
   * left and waits the rest. False when some tick was still running at the end (they are named in
   * the log); the caller goes on closing, and the process can exit.
   */
  public boolean stop() throws InterruptedException {
    requestStop();
    long half = grace.toMillis() / 2;
    if (executor.awaitTermination(half, TimeUnit.MILLISECONDS)) {
      return true;
    }
    executor.shutdownNow();
    if (executor.awaitTermination(grace.toMillis() - half, TimeUnit.MILLISECONDS)) {
      return true;
    }
    LOG.warn(
        "event=stop_timeout grace_secs={} still_running={}",
        grace.toSeconds(),
        runner.runningStores());
    return false;
  }

  @Override
  public void close() {
    requestStop();
    executor.shutdownNow();
  }

  private static ThreadFactory namedThreads() {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "fetch-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
