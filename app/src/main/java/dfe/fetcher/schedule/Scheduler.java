package dfe.fetcher.schedule;

import dfe.fetcher.tick.BoundUnit;
import dfe.fetcher.tick.TickOutcome;
import dfe.fetcher.tick.UnitRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every connection's units on its interval, starting at once, with at most {@code
 * maxConcurrentFetches} connections running at the same time. The units of one connection run one
 * after the other, and a connection's next run starts {@code interval} after its previous one
 * ended, so runs of one connection never overlap. A unit's failure is its own: the connection's
 * other units and the other connections go on.
 */
public final class Scheduler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

  private final UnitRunner runner;
  private final ScheduledThreadPoolExecutor executor;

  public Scheduler(UnitRunner runner, int maxConcurrentFetches) {
    this.runner = runner;
    this.executor = new ScheduledThreadPoolExecutor(maxConcurrentFetches, namedThreads());
    this.executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Schedules every job, each starting now. */
  public void start(List<ConnectionJob> jobs) {
    for (ConnectionJob job : jobs) {
      executor.scheduleWithFixedDelay(
          () -> runScheduled(job), 0, job.interval().toMillis(), TimeUnit.MILLISECONDS);
      LOG.info(
          "event=connection_scheduled connection={} units={} interval_secs={}",
          job.connection(),
          job.units().size(),
          job.interval().toSeconds());
    }
  }

  /**
   * Runs every job once, concurrently as far as the limit allows, and returns each unit's outcome
   * keyed by store, in job and unit order.
   */
  public Map<String, TickOutcome> runOnce(List<ConnectionJob> jobs) throws InterruptedException {
    List<Future<Map<String, TickOutcome>>> runs = new ArrayList<>();
    for (ConnectionJob job : jobs) {
      runs.add(executor.submit(() -> runConnection(job)));
    }
    Map<String, TickOutcome> outcomes = new LinkedHashMap<>();
    for (Future<Map<String, TickOutcome>> run : runs) {
      try {
        outcomes.putAll(run.get());
      } catch (ExecutionException e) {
        throw new IllegalStateException("a connection run failed unexpectedly", e.getCause());
      }
    }
    return outcomes;
  }

  /**
   * One scheduled run. Whatever escapes it would cancel the connection's schedule without a word,
   * so it is logged here; only an error of the JVM itself (out of memory) still ends the schedule.
   */
  private void runScheduled(ConnectionJob job) {
    try {
      runConnection(job);
    } catch (VirtualMachineError e) {
      LOG.error(
          "event=connection_unscheduled connection={} error=\"{}\"",
          job.connection(),
          e.toString());
      throw e;
    } catch (Throwable e) {
      LOG.error(
          "event=connection_run_failed connection={} error=\"{}\"",
          job.connection(),
          e.toString(),
          e);
    }
  }

  private Map<String, TickOutcome> runConnection(ConnectionJob job) {
    Map<String, TickOutcome> outcomes = new LinkedHashMap<>();
    for (BoundUnit unit : job.units()) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      TickOutcome outcome = runner.runTick(unit);
      outcomes.put(unit.store(), outcome);
      if (outcome instanceof TickOutcome.Stopped) {
        break;
      }
    }
    return outcomes;
  }

  /** Stops scheduling and waits up to {@code grace} for running ticks to end. */
  public boolean stop(Duration grace) throws InterruptedException {
    executor.shutdown();
    return executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      // Ticks stop at their next row once interrupted; wait briefly so the transport is not
      // closed under a tick that is still sending.
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory namedThreads() {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "fetch-" + count.incrementAndGet());
      thread.setDaemon(false);
      return thread;
    };
  }
}
