package dfe.fetcher.snapshots;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code snapshots} commands as the tests run them, in this process or in a child one: the
 * arguments as a user types them after {@code dfe-fetcher}, so they start with {@code snapshots}.
 */
public final class SnapshotsMain {

  private SnapshotsMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs {@code dfe-fetcher snapshots ...} in this process and returns its exit code. */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    if (args.length == 0 || !args[0].equals("snapshots")) {
      throw new IllegalArgumentException("the arguments start with 'snapshots': " + List.of(args));
    }
    return SnapshotsCommand.run(
        Arrays.copyOfRange(args, 1, args.length), new Terminal(in, out, err));
  }
}
