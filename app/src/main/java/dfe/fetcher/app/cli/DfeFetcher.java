package dfe.fetcher.app.cli;

import dfe.fetcher.snapshots.SnapshotsCommand;
import dfe.fetcher.snapshots.Terminal;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code dfe-fetcher} command. Each subcommand is a feature of its own package. */
@Command(
    name = "dfe-fetcher",
    mixinStandardHelpOptions = true,
    versionProvider = DfeFetcher.Version.class,
    description = "Pulls records from files, databases and REST APIs onto Kafka.",
    subcommands = {
      RunCommand.class,
      ConfigCheckCommand.class,
      CheckpointsCommand.class,
      FilterCommand.class,
      StatusCommand.class
    })
public final class DfeFetcher implements Runnable {

  private final Terminal terminal;

  private DfeFetcher(Terminal terminal) {
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs the command line in this process and returns its exit code. */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    Terminal terminal = new Terminal(in, out, err);
    CommandLine commandLine = new CommandLine(new DfeFetcher(terminal));
    commandLine.addSubcommand("snapshots", new SnapshotsCommand(terminal));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    out.flush();
    err.flush();
    return exitCode;
  }

  /** The streams of the process, handed to subcommands so tests can run them in-process. */
  public Terminal terminal() {
    return terminal;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(terminal.err());
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
