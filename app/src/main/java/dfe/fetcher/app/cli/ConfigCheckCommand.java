package dfe.fetcher.app.cli;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.runtime.config.ConfigSummary;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.snapshots.Terminal;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigProblem;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dfe-fetcher config-check}: validates a configuration and prints every problem. */
@Command(
    name = "config-check",
    mixinStandardHelpOptions = true,
    description = {
      "Validates a configuration (YAML, DFE_FETCHER_* overrides, filters) without running it.",
      "Exit 0 and a summary when valid; exit 2 and one FILE:LINE:COL: path: message per problem"
          + " otherwise. Secrets are never printed.",
      "With --probe, each enabled connection whose configuration names a probe (a REST profile's"
          + " cheapest authenticated call, SELECT 1 for ClickHouse) is also sent it once: ok,"
          + " refused (with the status) or"
          + " unreachable; exit 1 when any is not ok. Nothing is landed and no checkpoint touched."
    })
final class ConfigCheckCommand implements Callable<Integer> {

  static final int INVALID_CONFIG = 2;
  static final int PROBE_FAILED = 1;

  @ParentCommand private DfeFetcher root;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
  private Path config;

  @Option(
      names = "--probe",
      description =
          "Also try each enabled connection's credentials with its probe; exit 1 when one fails")
  private boolean probe;

  @Override
  public Integer call() {
    Terminal terminal = root.terminal();
    try {
      // What run refuses at start or on a tick, config-check refuses too, all at once.
      FetcherConfig loaded = FetcherService.checkConfig(config, System.getenv());
      terminal.out().print(ConfigSummary.render(loaded));
      for (ConnectionConfig connection : loaded.connections()) {
        for (String hint : connection.source().hints()) {
          terminal.err().println("hint: " + hint);
        }
      }
      terminal.err().flush();
      terminal.out().flush();
      return probe ? probe(loaded, terminal) : 0;
    } catch (ConfigException e) {
      printProblems(e, terminal);
      return INVALID_CONFIG;
    }
  }

  /**
   * Sends each enabled connection's probe, one at a time, and prints one line per connection under
   * {@code probes:}; a connection that names none says so and fails nothing.
   */
  private static int probe(FetcherConfig loaded, Terminal terminal) {
    SourceRuntime runtime = new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT);
    boolean failed = false;
    terminal.out().println("probes:");
    for (ConnectionConfig connection : loaded.connections()) {
      if (!connection.enabled()) {
        continue;
      }
      String name = "  " + connection.family() + " " + connection.id() + ": ";
      Optional<ProbeOutcome> outcome;
      try {
        outcome = connection.source().probe(runtime);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        terminal.out().println(name + "unreachable (interrupted)");
        terminal.out().flush();
        return PROBE_FAILED;
      }
      if (outcome.isEmpty()) {
        terminal.out().println(name + "no probe (its configuration names none)");
        continue;
      }
      failed |= outcome.get().verdict() != ProbeOutcome.Verdict.OK;
      terminal
          .out()
          .println(name + outcome.get().verdict().word() + " (" + outcome.get().detail() + ")");
      terminal.out().flush();
    }
    terminal.out().flush();
    return failed ? PROBE_FAILED : 0;
  }

  /**
   * The configuration in {@code config}, with the process's environment overrides; null when it is
   * refused, its problems printed on stderr.
   */
  static FetcherConfig loadOrReport(Path config, Terminal terminal) {
    try {
      return FetcherService.loadConfig(config, System.getenv());
    } catch (ConfigException e) {
      printProblems(e, terminal);
      return null;
    }
  }

  static void printProblems(ConfigException e, Terminal terminal) {
    for (ConfigProblem problem : e.problems()) {
      terminal.err().println(problem.render());
    }
    terminal.err().flush();
  }
}
