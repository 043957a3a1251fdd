package dfe.fetcher.app.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** One in-process run of {@code dfe-fetcher}: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    return withInput("", args);
  }

  /** A run whose standard input is {@code input}. */
  static CliRun withInput(String input, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode =
        DfeFetcher.run(
            args,
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CliRun(
        exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  List<String> errLines() {
    return err.isEmpty() ? List.of() : Arrays.asList(err.split("\\R"));
  }
}
