package dfe.fetcher.snapshots;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** One in-process run of the command line: its exit code and what it printed. */
record CommandRun(int exitCode, String out, String err) {

  static CommandRun of(String... args) {
    return withStdin(new byte[0], args);
  }

  static CommandRun withStdin(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    InputStream in = new ByteArrayInputStream(stdin);
    int exitCode =
        SnapshotsMain.run(
            args,
            in,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CommandRun(
        exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  List<String> outLines() {
    return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
  }

  List<String> errLines() {
    return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
  }
}
