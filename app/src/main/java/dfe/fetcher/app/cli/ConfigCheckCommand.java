package dfe.fetcher.app.cli;

import dfe.fetcher.runtime.config.ConfigSummary;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.snapshots.Terminal;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigProblem;
import java.nio.file.Path;
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
          + " otherwise. Secrets are never printed."
    })
final class ConfigCheckCommand implements Callable<Integer> {

  static final int INVALID_CONFIG = 2;

  @ParentCommand private DfeFetcher root;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "YAML file")
  private Path config;

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
      return 0;
    } catch (ConfigException e) {
      printProblems(e, terminal);
      return INVALID_CONFIG;
    }
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
