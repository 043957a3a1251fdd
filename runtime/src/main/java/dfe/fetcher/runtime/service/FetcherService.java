package dfe.fetcher.runtime.service;

import dfe.fetcher.runtime.config.ConfigLoader;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.cursor.StoredCheckpoint;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.schedule.ConnectionJob;
import dfe.fetcher.runtime.schedule.Scheduler;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.runtime.transport.ConfiguredTransport;
import dfe.fetcher.runtime.transport.Transport;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.ConfigException;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running fetcher: the configuration wired into units, a transport, a cursor store, metrics and
 * a scheduler. {@link #runOnce} runs every enabled unit one time; {@link #start} serves until
 * {@link #stop}. {@link #reload} takes a new configuration's filters without a restart.
 */
public final class FetcherService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.service");

  private final FetcherConfig config;
  private volatile FetcherConfig current;
  private final Transport transport;
  private final FetcherMetrics metrics;
  private final SourceRuntime runtime;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Map<String, Wired> wired = new LinkedHashMap<>();
  private final Scheduler scheduler;
  private final UnitRunner runner;
  private final FileCursorStore cursors;
  private volatile boolean started;

  /** One enabled connection as it runs: its job, its filter, and what it opened. */
  private record Wired(
      ConnectionConfig connection,
      ConnectionJob job,
      AtomicReference<RowFilterStage> filter,
      ConnectionUnits opened) {}

  private FetcherService(
      FetcherConfig config, FetcherMetrics metrics, Transport transport, Clock clock) {
    this.config = config;
    this.current = config;
    this.transport = transport;
    this.metrics = metrics;
    this.metrics.registerReadiness(this::isReady);
    this.runtime = new SourceRuntime(clock, config.oversize(), metrics);
    this.cursors = new FileCursorStore(config.checkpointDirectory(), clock);
    TickContext context = TickContext.of(config, transport, cursors, metrics, clock, stopping::get);
    this.runner = new UnitRunner(context);
    this.scheduler =
        new Scheduler(
            runner,
            config.scheduler().maxConcurrentFetches(),
            config.scheduler().stopGrace(),
            clock,
            config.scheduler().jitter());
    for (ConnectionConfig connection : config.connections()) {
      if (connection.enabled()) {
        wired.put(connection.id(), wire(config, connection, filterOf(connection)));
      }
    }
  }

  /**
   * Wires {@code config}.
   *
   * @throws IllegalArgumentException when the configuration asks for something this build cannot do
   *     yet (the Kafka transport)
   */
  public static FetcherService create(FetcherConfig config, Clock clock) {
    FetcherMetrics metrics = new FetcherMetrics(new PrometheusRegistry(), clock);
    return new FetcherService(config, metrics, ConfiguredTransport.open(config, metrics), clock);
  }

  /**
   * Loads a configuration as {@link #loadConfig} does and also checks what a run would refuse only
   * when it starts or ticks (secrets that cannot be read now, Kafka properties the producer
   * refuses), reporting every problem at once: what {@code config-check} runs.
   */
  public static FetcherConfig checkConfig(Path file, Map<String, String> environment)
      throws ConfigException {
    return ConfigLoader.check(file, environment, FilterStages.COMPILER);
  }

  /** Loads and checks a configuration, CEL filters included, reporting every problem at once. */
  public static FetcherConfig loadConfig(Path file, Map<String, String> environment)
      throws ConfigException {
    return ConfigLoader.load(file, environment, FilterStages.COMPILER);
  }

  public FetcherMetrics metrics() {
    return metrics;
  }

  /** Runs every enabled unit once; the outcome of each, keyed by store. */
  public Map<String, TickOutcome> runOnce() throws InterruptedException {
    return scheduler.runOnce(jobs());
  }

  /**
   * Runs the enabled units among {@code stores} once, each connection's in configuration order; the
   * outcome of each, keyed by store. A store that names no enabled unit runs nothing: the caller
   * checks names against {@link #stores} first.
   */
  public Map<String, TickOutcome> runUnitsOnce(Set<String> stores) throws InterruptedException {
    List<ConnectionJob> chosen = new ArrayList<>();
    for (ConnectionJob job : jobs()) {
      List<BoundUnit> units =
          job.units().stream().filter(unit -> stores.contains(unit.store())).toList();
      if (!units.isEmpty()) {
        chosen.add(new ConnectionJob(job.connection(), job.interval(), units));
      }
    }
    return scheduler.runOnce(chosen);
  }

  /** Every enabled unit's store, in configuration order. */
  public synchronized List<String> stores() {
    return jobs().stream().flatMap(job -> job.units().stream()).map(BoundUnit::store).toList();
  }

  /**
   * What the service knows of each enabled unit now: its last tick and success, its connection's
   * next run, and its checkpoint as the file holds it. Safe to call from any thread.
   */
  public List<UnitStatus> status() {
    List<Wired> running;
    synchronized (this) {
      running = List.copyOf(wired.values());
    }
    List<UnitStatus> status = new ArrayList<>();
    for (Wired connection : running) {
      String id = connection.connection().id();
      for (BoundUnit unit : connection.job().units()) {
        status.add(
            new UnitStatus(
                unit.store(),
                id,
                unit.spec().shape().name().toLowerCase(Locale.ROOT),
                scheduler.history().of(unit.store()),
                scheduler.history().nextRunOf(id),
                unit.markKind().map(kind -> cursors.inspect(unit.cursorKey()))));
      }
    }
    return status;
  }

  private synchronized List<ConnectionJob> jobs() {
    return wired.values().stream().map(Wired::job).toList();
  }

  /**
   * Starts every connection's schedule. Returns at once. The standalone command serves metrics and
   * health beside it ({@link #metrics}, {@link #isReady}).
   */
  public synchronized void start() {
    started = true;
    scheduler.start(jobs());
  }

  /**
   * Ready while the service is not stopping, its transport is reachable, and every unit's last
   * checkpoint commit worked (a unit whose commit failed lands nothing until it works).
   */
  public boolean isReady() {
    return !stopping.get() && transport.isReady() && runner.uncommittedKeys().isEmpty();
  }

  /**
   * Takes {@code newer}'s connections. An unchanged connection keeps running and takes the new
   * filter from its next tick; a connection whose settings changed is taken off the schedule, its
   * running tick cancelled (waiting up to the stop grace), its resources closed, and it is opened
   * and scheduled again as configured now; a removed or disabled one is stopped and closed; a new
   * one is scheduled. Settings outside {@code sources} need a restart, and a change to them is
   * logged.
   */
  public synchronized void reload(FetcherConfig newer) throws InterruptedException {
    Map<String, ConnectionConfig> wanted = new LinkedHashMap<>();
    for (ConnectionConfig connection : newer.connections()) {
      if (connection.enabled()) {
        wanted.put(connection.id(), connection);
      }
    }
    int replaced = 0;
    for (Wired running : List.copyOf(wired.values())) {
      ConnectionConfig next = wanted.get(running.connection().id());
      if (next != null && sameButFilter(running.connection(), next)) {
        running.filter().set(filterOf(next));
        continue;
      }
      scheduler.unschedule(running.connection().id(), "reload");
      running.opened().close();
      running.job().units().forEach(unit -> metrics.freshness().forget(unit.store()));
      wired.remove(running.connection().id());
      replaced++;
      LOG.info(
          "event=connection_stopped connection={} why={}",
          running.connection().id(),
          next == null ? "removed_or_disabled" : "changed");
    }
    for (ConnectionConfig connection : wanted.values()) {
      if (!wired.containsKey(connection.id())) {
        // Settings outside sources (instance id, topic suffix, scheduler defaults) stay as
        // started: a reload does not move a connection's cursor key or topics.
        Wired added = wire(config, connection, filterOf(connection));
        wired.put(connection.id(), added);
        if (started) {
          scheduler.schedule(added.job());
        }
      }
    }
    List<String> needRestart = changedOutsideSources(current, newer);
    if (!needRestart.isEmpty()) {
      LOG.warn(
          "event=config_reload_partial settings={} note=\"kept as started; they take effect on a"
              + " restart\"",
          String.join(",", needRestart));
    }
    current = newer;
    LOG.info(
        "event=config_reloaded connections={} replaced_or_removed={}", wanted.size(), replaced);
  }

  /**
   * Asks every running tick to stop taking rows, without waiting: open dumps are left without an
   * end and checkpoints already committed stay. Safe to call from a signal handler.
   */
  public void requestStop() {
    stopping.set(true);
    scheduler.requestStop();
  }

  /**
   * Stops taking rows and cancels what every source blocks in; open dumps are left without an end.
   * Waits at most {@code scheduler.stop_grace_secs} for running ticks to end; false when some did
   * not (they are logged, and the process may exit under them).
   */
  public boolean stop() throws InterruptedException {
    stopping.set(true);
    return scheduler.stop();
  }

  @Override
  public void close() {
    stopping.set(true);
    scheduler.close();
    synchronized (this) {
      wired.values().forEach(running -> running.opened().close());
    }
    transport.close();
  }

  private Wired wire(
      FetcherConfig config, ConnectionConfig connection, RowFilterStage initialFilter) {
    AtomicReference<RowFilterStage> filter = new AtomicReference<>(initialFilter);
    ConnectionUnits units =
        ConnectionUnits.wire(config, connection, runtime, filter::get, store -> true);
    // Every series a unit's ticks move exists from the start, at 0, so an alert on a rate or an
    // increase sees the unit before its first event.
    Duration interval = config.intervalOf(connection);
    for (BoundUnit unit : units.units()) {
      metrics.registerAtZero(unit, config.dlq().enabled());
      metrics
          .freshness()
          .register(unit.store(), interval, unit.markKind().isPresent(), checkpointWrittenAt(unit));
    }
    return new Wired(
        connection, new ConnectionJob(connection.id(), interval, units.units()), filter, units);
  }

  /** When the unit's checkpoint file was last written: its data's age survives a restart. */
  private Optional<Instant> checkpointWrittenAt(BoundUnit unit) {
    if (unit.markKind().isEmpty()) {
      return Optional.empty();
    }
    return cursors.inspect(unit.cursorKey()) instanceof StoredCheckpoint.Held held
        ? Optional.of(held.writtenAt())
        : Optional.empty();
  }

  private static RowFilterStage filterOf(ConnectionConfig connection) {
    return ConnectionUnits.filterOf(connection);
  }

  private static boolean sameButFilter(ConnectionConfig running, ConnectionConfig next) {
    return running
        .withFilter(Optional.empty(), FilterErrors.KEEP)
        .equals(next.withFilter(Optional.empty(), FilterErrors.KEEP));
  }

  /** The top-level settings outside {@code sources} that differ: a reload does not take them. */
  private static List<String> changedOutsideSources(FetcherConfig running, FetcherConfig newer) {
    List<String> changed = new ArrayList<>();
    addIfChanged(changed, "instance_id", running.instanceId(), newer.instanceId());
    addIfChanged(changed, "scheduler", running.scheduler(), newer.scheduler());
    addIfChanged(changed, "output", running.output(), newer.output());
    addIfChanged(changed, "output.batch", running.batch(), newer.batch());
    addIfChanged(changed, "dlq", running.dlq(), newer.dlq());
    addIfChanged(changed, "oversize", running.oversize(), newer.oversize());
    addIfChanged(changed, "cursor", running.cursor(), newer.cursor());
    addIfChanged(changed, "metrics", running.metrics(), newer.metrics());
    return changed;
  }

  private static void addIfChanged(List<String> changed, String setting, Object was, Object is) {
    if (!was.equals(is)) {
      changed.add(setting);
    }
  }
}
