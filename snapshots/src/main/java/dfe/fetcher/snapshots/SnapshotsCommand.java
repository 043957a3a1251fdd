package dfe.fetcher.snapshots;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code dfe-fetcher snapshots}: check landed frames from the consumer's side.
 *
 * <p>Exit codes, which scripts rely on: {@value #ALL_COMPLETE} when every line was a frame and
 * every snapshot is complete; {@value #NOT_COMPLETE} when any snapshot is not complete (or the
 * asked-for one is absent); else {@value #INVALID_INPUT} when some line was not a frame or a file
 * could not be read.
 */
@Command(
    name = "snapshots",
    mixinStandardHelpOptions = true,
    description =
        "Verify enveloped dumps, extract the rows of a complete one, apply the latest complete"
            + " one to a table, and list the changes between two.",
    subcommands = {VerifyCommand.class, RowsCommand.class, ApplyCommand.class, DiffCommand.class})
public final class SnapshotsCommand implements Runnable {

  static final int ALL_COMPLETE = 0;
  static final int INVALID_INPUT = 2;
  static final int NOT_COMPLETE = 3;

  private final Terminal terminal;

  /** The command reading and writing {@code terminal}'s streams, for any root command to add. */
  public SnapshotsCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  /** Runs {@code snapshots ARGS...} on {@code terminal} and returns its exit code. */
  public static int run(String[] args, Terminal terminal) {
    CommandLine commandLine = new CommandLine(new SnapshotsCommand(terminal));
    commandLine.setOut(new PrintWriter(terminal.out(), true));
    commandLine.setErr(new PrintWriter(terminal.err(), true));
    int exitCode = commandLine.execute(args);
    terminal.out().flush();
    terminal.err().flush();
    return exitCode;
  }

  Terminal terminal() {
    return terminal;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(terminal().err());
  }

  /** The exit code for what was read: incompleteness first, then bad input. */
  static int exitCode(boolean allComplete, boolean inputWasClean) {
    if (!allComplete) {
      return NOT_COMPLETE;
    }
    return inputWasClean ? ALL_COMPLETE : INVALID_INPUT;
  }
}
