package dfe.fetcher.app.cli;

import dfe.fetcher.app.health.HealthServer;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.snapshots.Terminal;
import dfe.fetcher.snapshots.progress.TerminalProgress;
import dfe.fetcher.source.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** {@code dfe-fetcher run}: the service, or one pass over every unit with {@code --once}. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the fetcher: every enabled connection on its interval, metrics and health on"
          + " metrics.address. SIGTERM/SIGINT stop it (open dumps get no end; acknowledged"
          + " checkpoints stay), SIGHUP reloads the filters.",
      "With --once: every enabled unit (or each --unit) runs one time; exit 1 naming each unit that failed;"
          + " stopped by SIGTERM/SIGINT before every unit finished: exit 143/130 naming each"
          + " unit that stopped.",
      "Exit 2 when the configuration is refused or metrics.address cannot be listened on."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.run");
  static final int UNIT_FAILED = 1;

  @ParentCommand private DfeFetcher root;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
  private Path config;

  @Option(names = "--once", description = "Run every enabled unit once, then exit.")
  private boolean once;

  @Option(
      names = "--unit",
      paramLabel = "CONNECTION.UNIT",
      description =
          "With --once: run only this unit (repeatable). An unknown or disabled unit is a usage"
              + " error naming the known ones.")
  private List<String> units = List.of();

  @Spec private CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException, IOException {
    Terminal terminal = root.terminal();
    FetcherConfig loaded;
    try {
      loaded = FetcherService.loadConfig(config, System.getenv());
    } catch (ConfigException e) {
      ConfigCheckCommand.printProblems(e, terminal);
      return ConfigCheckCommand.INVALID_CONFIG;
    }
    if (!units.isEmpty() && !once) {
      throw new ParameterException(spec.commandLine(), "--unit runs a unit once: add --once");
    }
    Set<String> chosen = new LinkedHashSet<>();
    ConfiguredUnits configured = ConfiguredUnits.of(loaded);
    for (String unit : units) {
      chosen.add(configured.require(spec, unit, true).store());
    }
    FetcherService service;
    try {
      service = FetcherService.create(loaded, Clock.systemUTC());
    } catch (IllegalArgumentException e) {
      terminal.err().println(config + ": " + e.getMessage());
      return ConfigCheckCommand.INVALID_CONFIG;
    }
    try (service) {
      return once ? runOnce(service, chosen, terminal) : serve(service, loaded);
    }
  }

  /** Runs {@code chosen} once, or every enabled unit when it is empty. */
  private static int runOnce(FetcherService service, Set<String> chosen, Terminal terminal)
      throws InterruptedException {
    // As in the service: a stop signal lets the running units leave their dumps open and end.
    // The previous handlers come back afterwards, for a caller that runs this in its own JVM.
    AtomicInteger stoppedBy = new AtomicInteger();
    SignalHandler stop =
        signal -> {
          stoppedBy.compareAndSet(0, signal.getNumber());
          service.requestStop();
        };
    SignalHandler previousTerm = Signal.handle(new Signal("TERM"), stop);
    SignalHandler previousInt = Signal.handle(new Signal("INT"), stop);
    Map<String, TickOutcome> outcomes;
    try (TerminalProgress progress =
        TerminalProgress.start(
            "run",
            terminal.progress(),
            terminal.err(),
            () ->
                LandedRows.reading(
                    service.metrics().registry(),
                    service.metrics().announcedRows(),
                    service.metrics().inputAhead(),
                    service.metrics().inputRead()))) {
      outcomes = chosen.isEmpty() ? service.runOnce() : service.runUnitsOnce(chosen);
    } finally {
      Signal.handle(new Signal("TERM"), previousTerm);
      Signal.handle(new Signal("INT"), previousInt);
    }
    int failed = 0;
    int stopped = 0;
    long filtered = 0;
    long unjudged = 0;
    for (Map.Entry<String, TickOutcome> outcome : outcomes.entrySet()) {
      if (outcome.getValue() instanceof TickOutcome.Succeeded done) {
        filtered += done.rowsFiltered();
        unjudged += done.rowsUnjudged();
      }
      if (outcome.getValue() instanceof TickOutcome.Failed failure) {
        failed++;
        terminal.err().println("unit " + outcome.getKey() + " failed: " + failure.reason());
      } else if (outcome.getValue() instanceof TickOutcome.Stopped cut) {
        stopped++;
        terminal
            .err()
            .println(
                "unit "
                    + outcome.getKey()
                    + (cut.leftADumpOpen()
                        ? " stopped before it finished: its dump in progress has no end, and the"
                            + " next run reads it again from the last committed checkpoint"
                        : " stopped before it finished; the next run goes on from the last"
                            + " committed checkpoint"));
      }
    }
    terminal
        .err()
        .println(
            "ran "
                + outcomes.size()
                + (outcomes.size() == 1 ? " unit" : " units")
                + ", "
                + failed
                + " failed"
                + (stopped == 0 ? "" : ", " + stopped + " stopped")
                + (filtered == 0 ? "" : ", " + filtered + " rows filtered out")
                + (unjudged == 0
                    ? ""
                    : ", "
                        + unjudged
                        + " rows the filter could not judge (see filter_errors in the log)"));
    if (stoppedBy.get() != 0 && (stopped > 0 || failed > 0)) {
      // A batch job cut short is not a success: the shell's status for the signal that cut it,
      // ahead of any unit's own failure (a unit left running past the grace counts as cut).
      return 128 + stoppedBy.get();
    }
    // A unit stopped without a signal (an interrupt from elsewhere) did not finish either.
    return failed == 0 && stopped == 0 ? 0 : UNIT_FAILED;
  }

  private int serve(FetcherService service, FetcherConfig loaded)
      throws IOException, InterruptedException {
    CountDownLatch stopRequested = new CountDownLatch(1);
    Signal.handle(new Signal("TERM"), signal -> stopRequested.countDown());
    Signal.handle(new Signal("INT"), signal -> stopRequested.countDown());
    // A reload may wait up to the stop grace for a replaced connection's tick: never in the
    // signal's own thread, and one at a time.
    ExecutorService reloads =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "reload");
              thread.setDaemon(true);
              return thread;
            });
    Signal.handle(new Signal("HUP"), signal -> reloads.execute(() -> reload(service)));
    HealthServer health;
    try {
      health = HealthServer.serve(service, loaded.metrics());
    } catch (IOException e) {
      root.terminal().err().println(config + ": " + e.getMessage());
      return ConfigCheckCommand.INVALID_CONFIG;
    }
    try (health) {
      service.start();
      LOG.info("event=started instance={} config={}", loaded.instanceId(), config);
      stopRequested.await();
      LOG.info("event=stopping");
      service.stop();
      LOG.info("event=stopped");
    }
    return 0;
  }

  private void reload(FetcherService service) {
    try {
      service.reload(FetcherService.loadConfig(config, System.getenv()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ConfigException e) {
      LOG.error(
          "event=config_reload_refused problems={} first=\"{}\"",
          e.problems().size(),
          e.problems().isEmpty() ? "" : e.problems().get(0).render());
    } catch (RuntimeException e) {
      // A reload that failed half way is logged where an operator looks, never lost on stderr.
      LOG.error(
          "event=config_reload_failed error=\"{}: {}\" note=\"restart to be sure every connection"
              + " runs as configured\"",
          e.getClass().getSimpleName(),
          e.getMessage());
    }
  }
}
