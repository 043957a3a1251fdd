package dfe.fetcher.connect;

import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.ConnectionUnits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.source.SourceRuntime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the units the connector gave this task ({@value ConnectorSettings#TASK_UNITS}) with the
 * standalone service's tick: a {@link TaskLoop} thread ticks them one at a time into a {@link
 * ConnectTransport}, which {@link #poll} drains for the worker. A unit's failure is logged and the
 * unit retried on its interval, as in the standalone service, its run of failures counted on the
 * task's JMX bean ({@link FailureStreaks}); the task fails (and stays failed until restarted
 * through Connect's REST API) when a unit's run reaches {@code dfe.task.max_consecutive_failures}
 * (when set), when the JVM reports an error no tick can contain, or when its tick thread ends for
 * any other reason. {@link #stop} cancels what the running unit blocks in (a query, an HTTP
 * request); its open dump gets no end.
 */
public final class DfeSourceTask extends SourceTask {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.connect");

  /** How long {@link #poll} waits for the first record before handing the worker nothing. */
  static final long POLL_WAIT_MILLIS = 500;

  /** Records {@link #poll} hands over at most at once. */
  static final int POLL_MAX_RECORDS = 2000;

  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicReference<String> halted = new AtomicReference<>();
  private final List<ConnectionUnits> connections = new ArrayList<>();
  private ConnectTransport transport;
  private UnitRunner runner;
  private TaskLoop loop;
  private volatile Thread thread;
  private Optional<TaskMetricsBean> metricsBean = Optional.empty();
  private Duration stopGrace = Duration.ofSeconds(30);
  private final PollActivity polls = new PollActivity(Clock.systemUTC());

  @Override
  public String version() {
    return Versions.VERSION;
  }

  @Override
  public void start(Map<String, String> properties) {
    FetcherConfig config = ConnectorSettings.boundOrThrow(properties);
    Set<String> assigned = new HashSet<>(ConnectorSettings.taskUnits(properties));
    Clock clock = Clock.systemUTC();
    FetcherMetrics metrics = new FetcherMetrics();
    metricsBean =
        TaskMetricsBean.register(metrics.registry(), properties.getOrDefault("name", "unnamed"));
    FailureStreaks streaks =
        new FailureStreaks(
            metrics.registry(), ConnectorSettings.maxConsecutiveFailures(properties));
    SourceRuntime runtime = new SourceRuntime(clock, config.oversize(), metrics);
    transport = new ConnectTransport(Optional.ofNullable(context.transactionContext()), clock);

    List<BoundUnit> units = new ArrayList<>();
    Map<String, Duration> intervals = new HashMap<>();
    Map<String, String> storeOfKey = new HashMap<>();
    for (ConnectionConfig connection : config.connections()) {
      if (!connection.enabled()) {
        continue;
      }
      RowFilterStage filter = ConnectionUnits.filterOf(connection);
      ConnectionUnits wired =
          ConnectionUnits.wire(config, connection, runtime, () -> filter, assigned::contains);
      if (wired.units().isEmpty()) {
        continue;
      }
      connections.add(wired);
      intervals.put(connection.id(), config.intervalOf(connection));
      for (BoundUnit unit : wired.units()) {
        units.add(unit);
        storeOfKey.put(unit.cursorKey(), unit.store());
      }
    }
    Set<String> missing = new HashSet<>(assigned);
    units.forEach(unit -> missing.remove(unit.store()));
    if (!missing.isEmpty()) {
      connections.forEach(ConnectionUnits::close);
      metricsBean.ifPresent(TaskMetricsBean::unregister);
      throw new ConnectException(
          "this task was given units its configuration has no enabled unit for: "
              + missing.stream().sorted().toList()
              + " (a "
              + ConnectorSettings.CONFIG_FILE
              + " that differs between workers or changed since the connector started?"
              + " restart the connector)");
    }
    stopGrace = config.scheduler().stopGrace();
    TickContext tickContext =
        TickContext.of(
            config,
            transport,
            new ConnectCursorStore(context.offsetStorageReader(), storeOfKey, transport, clock),
            metrics,
            clock,
            stopping::get);
    runner =
        new UnitRunner(
            tickContext,
            (where, error) -> {
              // The worker, not this plugin, owns the JVM: fail the task, and Connect restarts it.
              halted.set("an error of the JVM no tick could contain, in " + where + ": " + error);
              stopping.set(true);
            });
    units.forEach(unit -> streaks.register(unit.store()));
    LastTicks lastTicks = new LastTicks(context.offsetStorageReader());
    long now = clock.millis();
    loop =
        new TaskLoop(
            runner::runTick,
            units,
            intervals,
            (store, interval) -> lastTicks.dueMillis(store, interval, now),
            clock,
            polls,
            new TaskLoop.TickObserver() {
              @Override
              public void started(BoundUnit unit, long millis) {
                transport.tickStarted(unit.store(), millis);
              }

              @Override
              public void ended(BoundUnit unit, TickOutcome outcome) {
                streaks.record(unit.store(), outcome).ifPresent(DfeSourceTask.this::fail);
              }
            });
    thread = new Thread(this::runLoop, "dfe-task-" + String.join(",", assigned));
    thread.setDaemon(true);
    thread.start();
    LOG.info(
        "event=task_started units={} exactly_once={}",
        units.stream().map(BoundUnit::store).toList(),
        context.transactionContext() != null);
  }

  /** Fails the task with {@code reason}: the next {@link #poll} throws it to the worker. */
  private void fail(String reason) {
    halted.compareAndSet(null, reason);
    stopping.set(true);
    loop.stop();
    LOG.error("event=task_failing reason=\"{}\"", reason.replace("\"", "'"));
  }

  private void runLoop() {
    try {
      loop.run();
      if (!stopping.get()) {
        halted.compareAndSet(null, "the task's tick thread ended");
      }
    } catch (Throwable e) {
      // Whatever ends the loop must fail the task where Connect shows it, not stop it quietly.
      halted.compareAndSet(null, "the task's tick thread: " + e);
      stopping.set(true);
      if (e instanceof VirtualMachineError error) {
        throw error;
      }
    } finally {
      connections.forEach(ConnectionUnits::close);
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    String halt = halted.get();
    if (halt != null) {
      throw new ConnectException(halt);
    }
    polls.polled();
    return transport.poll(POLL_MAX_RECORDS, POLL_WAIT_MILLIS);
  }

  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    transport.committed(record, metadata);
  }

  /**
   * Cancels the running tick and returns at once, as Connect asks; a watcher interrupts the tick
   * after half of {@code scheduler.stop_grace_secs} if it has not ended, as the standalone
   * scheduler does, and reports it if it outlasts the grace. The connection is closed when the tick
   * ends.
   */
  @Override
  public void stop() {
    stopping.set(true);
    if (loop != null) {
      loop.stop();
      runner.cancelAll("task stopping");
    }
    if (transport != null) {
      transport.close();
    }
    metricsBean.ifPresent(TaskMetricsBean::unregister);
    LOG.info("event=task_stopping");
    Thread ticking = thread;
    if (ticking != null && ticking.isAlive()) {
      Thread watcher = new Thread(() -> watchStop(ticking), "dfe-task-stop");
      watcher.setDaemon(true);
      watcher.start();
    }
  }

  private void watchStop(Thread ticking) {
    try {
      ticking.join(Math.max(1, stopGrace.toMillis() / 2));
      if (ticking.isAlive()) {
        ticking.interrupt();
        ticking.join(Math.max(1, stopGrace.toMillis() / 2));
      }
      if (ticking.isAlive()) {
        LOG.warn(
            "event=stop_timeout still_running={} grace_secs={}",
            runner.runningStores(),
            stopGrace.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
