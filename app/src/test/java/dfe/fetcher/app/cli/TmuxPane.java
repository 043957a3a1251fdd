package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A terminal for a test: a tmux pane of 120 by 30 on a tmux server of its own (its own socket, so
 * no other session's environment or server reaches it), running one shell command in a directory
 * that holds the launcher {@code ./dfe-fetcher} and this build's runnable jar, as a clone does.
 * Under CI ({@code CI} set) a missing tmux fails the test, since {@code .ci/run} installs it;
 * elsewhere the test is skipped, saying which package to install.
 */
final class TmuxPane implements AutoCloseable {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private final Path tmux;
  private final String socket;

  private TmuxPane(Path tmux, String socket) {
    this.tmux = tmux;
    this.socket = socket;
  }

  /** The path of tmux; fails under CI and skips elsewhere when it is not installed. */
  static Path requireTmux() {
    for (String directory :
        System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path candidate = Path.of(directory, "tmux");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    String message = "tmux is not installed (Debian package tmux; .ci/run installs it)";
    if (System.getenv("CI") != null) {
      fail(message);
    }
    Assumptions.abort(message);
    throw new AssertionError(message);
  }

  /**
   * A clone's launcher and jar in {@code directory}: {@code ./dfe-fetcher} and a link to the jar
   * this build packaged, which the launcher takes as up to date (no source is newer).
   */
  static Path checkout(Path directory) throws IOException {
    Files.copy(
        ROOT.resolve("dfe-fetcher"),
        directory.resolve("dfe-fetcher"),
        StandardCopyOption.COPY_ATTRIBUTES);
    Path jar = Path.of(System.getProperty("dfe.fetcher.jar", "target/dfe-fetcher.jar"));
    assertThat(jar).as("the runnable jar `mvn package` builds").isRegularFile();
    Path target = Files.createDirectories(directory.resolve("app/target"));
    Files.createSymbolicLink(target.resolve("dfe-fetcher.jar"), jar.toAbsolutePath());
    return directory;
  }

  /**
   * Runs {@code command} through bash in a new pane whose working directory is {@code directory};
   * after it, the pane shows {@code EXIT=<status>} and stays open until {@link #close}.
   */
  static TmuxPane run(Path directory, String command) throws IOException, InterruptedException {
    TmuxPane pane = new TmuxPane(requireTmux(), "dfe-fetcher-test-" + UUID.randomUUID());
    pane.tmux(
        List.of(
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "30",
            "-c",
            directory.toString(),
            "bash --norc --noprofile -c '"
                + command.replace("'", "'\\''")
                + "; echo EXIT=$?;"
                + " sleep 600'"));
    return pane;
  }

  /** What the pane has shown, its history first, one string per line, trailing blanks dropped. */
  List<String> lines() throws IOException, InterruptedException {
    String screen = tmux(List.of("capture-pane", "-p", "-J", "-S", "-"));
    List<String> lines = new ArrayList<>();
    for (String line : screen.split("\n", -1)) {
      lines.add(line.stripTrailing());
    }
    return lines;
  }

  /** The pane's text as one string, for a failure message. */
  String text() throws IOException, InterruptedException {
    return String.join("\n", lines());
  }

  /** Types {@code keys} into the pane ({@code q}, {@code C-c}). */
  void send(String keys) throws IOException, InterruptedException {
    tmux(List.of("send-keys", keys));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    tmux(List.of("kill-server"));
  }

  private String tmux(List<String> arguments) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(tmux.toString(), "-L", socket, "-f", "/dev/null"));
    command.addAll(arguments);
    Path out = Files.createTempFile("tmux", ".out");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
      builder.environment().remove("TMUX");
      builder.environment().put("TERM", "xterm-256color");
      Process process = builder.start();
      if (!process.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish within 30 s");
      }
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0 && !arguments.get(0).equals("kill-server")) {
        fail(String.join(" ", command) + " exited " + process.exitValue() + ": " + printed);
      }
      return printed;
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
