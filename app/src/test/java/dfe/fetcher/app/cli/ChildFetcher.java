package dfe.fetcher.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dfe-fetcher run} in a JVM of its own on this build's class path, so a test can stop it
 * with a signal or kill it: its output and errors go to a log, and no {@code DFE_FETCHER_*}
 * variable of the test's environment reaches it.
 */
final class ChildFetcher {

  private ChildFetcher() {}

  /**
   * Starts {@code run --config <config> <extra>} in {@code directory}.
   *
   * @param jvmOptions options for the child's JVM, such as {@code -Xmx256m}
   */
  static Process run(
      Path directory, Path config, Path log, List<String> jvmOptions, String... extra)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "dfe.fetcher.app.cli.DfeFetcher",
            "run",
            "--config",
            config.toString()));
    command.addAll(List.of(extra));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    return builder.start();
  }
}
