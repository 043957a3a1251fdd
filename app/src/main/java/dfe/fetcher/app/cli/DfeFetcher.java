package dfe.fetcher.app.cli;

import dfe.fetcher.app.logging.LogFormat;
import dfe.fetcher.snapshots.SnapshotsCommand;
import dfe.fetcher.snapshots.Terminal;
import dfe.fetcher.snapshots.progress.ProgressMode;
import dfe.fetcher.snapshots.progress.ProgressSetting;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The {@code dfe-fetcher} command. Each subcommand is a feature of its own package. */
@Command(
    name = "dfe-fetcher",
    mixinStandardHelpOptions = true,
    versionProvider = DfeFetcher.Version.class,
    description = "Pulls records from files, databases and REST APIs onto Kafka.")
public final class DfeFetcher implements Runnable {

  /**
   * The subcommands, by the name each is called with. picocli reads a command's whole model (its
   * options, its own subcommands) by reflection when the command is added, about a quarter of a
   * second for all of them: a command line that names one gets only that one, so {@code run} does
   * not pay for building {@code snapshots apply}. Help, a mistake and no subcommand get them all.
   */
  private static final Map<String, Function<Terminal, Object>> SUBCOMMANDS = subcommands();

  private static Map<String, Function<Terminal, Object>> subcommands() {
    Map<String, Function<Terminal, Object>> commands = new LinkedHashMap<>();
    commands.put("run", terminal -> RunCommand.class);
    commands.put("config-check", terminal -> ConfigCheckCommand.class);
    commands.put("checkpoints", terminal -> CheckpointsCommand.class);
    commands.put("filter", terminal -> FilterCommand.class);
    commands.put("status", terminal -> StatusCommand.class);
    commands.put("top", terminal -> TopCommand.class);
    commands.put("metrics-manifest", terminal -> MetricsManifestCommand.class);
    commands.put("snapshots", SnapshotsCommand::new);
    return Collections.unmodifiableMap(commands);
  }

  /** The options of this command that take a value, which may stand before the subcommand. */
  private static final Set<String> OPTIONS_WITH_A_VALUE = Set.of("--progress", "--log-format");

  private final Terminal terminal;

  @Spec private CommandSpec spec;

  private DfeFetcher(Terminal terminal) {
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    String variable = System.getenv(LogFormat.VARIABLE);
    if (variable != null && !variable.isBlank()) {
      Optional<LogFormat> format = LogFormat.of(variable);
      if (format.isEmpty()) {
        System.err.println(
            LogFormat.VARIABLE + "=" + variable + ": not a log format; use text or json");
        System.exit(2);
      }
      format.get().apply();
    }
    ProgressSetting progress;
    try {
      progress = ProgressSetting.of(System.getenv(), System.getProperties());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(run(args, new Terminal(System.in, System.out, System.err, progress)));
  }

  /**
   * {@code --progress auto|always|never}, on every subcommand; it wins over {@code
   * DFE_FETCHER_PROGRESS}. Commands that draw a progress line read it when they start.
   */
  @Option(
      names = "--progress",
      paramLabel = "auto|always|never",
      scope = ScopeType.INHERIT,
      description =
          "the progress line of run --once and snapshots verify/apply/diff on stderr: auto"
              + " (default; only when stderr is a terminal, as ./dfe-fetcher tells), always or"
              + " never; default from DFE_FETCHER_PROGRESS")
  void progress(String word) {
    ProgressMode mode =
        ProgressMode.of(word)
            .orElseThrow(
                () ->
                    new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--progress " + word + ": not a progress mode; use auto, always or never"));
    terminal.progress().choose(mode);
  }

  /**
   * {@code --log-format text|json}, on every subcommand; it wins over {@code
   * DFE_FETCHER_LOG_FORMAT}. Applied as it is parsed, before the command logs anything.
   */
  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      scope = ScopeType.INHERIT,
      description =
          "how log events are written on stderr: text (default; TIME LEVEL LOGGER key=value ...)"
              + " or json (one object per event, ECS-style names); default from"
              + " DFE_FETCHER_LOG_FORMAT")
  void logFormat(String word) {
    LogFormat format =
        LogFormat.of(word)
            .orElseThrow(
                () ->
                    new CommandLine.ParameterException(
                        new CommandLine(this),
                        "--log-format " + word + ": not a log format; use text or json"));
    format.apply();
  }

  /** Runs the command line in this process and returns its exit code. */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return run(args, new Terminal(in, out, err));
  }

  /** Runs the command line on {@code terminal}'s streams and returns its exit code. */
  static int run(String[] args, Terminal terminal) {
    PrintStream out = terminal.out();
    PrintStream err = terminal.err();
    CommandLine commandLine = new CommandLine(new DfeFetcher(terminal));
    Optional<String> named = subcommandNamed(args);
    for (Map.Entry<String, Function<Terminal, Object>> command : SUBCOMMANDS.entrySet()) {
      if (named.isEmpty() || named.get().equals(command.getKey())) {
        commandLine.addSubcommand(command.getKey(), command.getValue().apply(terminal));
      }
    }
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    out.flush();
    err.flush();
    return exitCode;
  }

  /**
   * The subcommand the command line names, when it names one this command has: its first word that
   * is neither an option nor an option's value. Empty for help, for no subcommand and for a word
   * that is none, which then meet the whole command (its usage, picocli's suggestions).
   */
  static Optional<String> subcommandNamed(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String word = args[i];
      if (OPTIONS_WITH_A_VALUE.contains(word)) {
        i++;
      } else if (!word.startsWith("-")) {
        return SUBCOMMANDS.containsKey(word) ? Optional.of(word) : Optional.empty();
      } else if (!word.contains("=")) {
        // -h, --help, -V, --version, or an option this command does not have: the whole command.
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** The streams of the process, handed to subcommands so tests can run them in-process. */
  public Terminal terminal() {
    return terminal;
  }

  @Override
  public void run() {
    spec.commandLine().usage(terminal.err());
  }

  /** The version from the jar's manifest, when run from the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = DfeFetcher.class.getPackage().getImplementationVersion();
      return new String[] {"dfe-fetcher " + (version == null ? "(development build)" : version)};
    }
  }
}
