package dfe.fetcher.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real tools the deploy artefacts are checked with ({@code promtool}, {@code kubectl}, {@code
 * systemd-analyze}, {@code prometheus}), run as processes. Under CI ({@code CI} set, as {@code
 * .ci/run} runs) a missing tool fails the test, because {@code .ci/run} installs every one; on a
 * developer's machine without it the test is skipped, saying which package to install.
 */
final class DeployTools {

  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private DeployTools() {}

  /** What a tool printed and how it exited. */
  record Result(int exitCode, String out, String err) {

    String both() {
      return out + err;
    }
  }

  /** The tool's path on {@code PATH}; fails under CI and skips elsewhere when it is missing. */
  static Path require(String tool, String debianPackage) {
    for (String directory :
        System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path candidate = Path.of(directory, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    String message =
        tool + " is not installed (Debian package " + debianPackage + "; .ci/run installs it)";
    if (System.getenv("CI") != null) {
      fail(message);
    }
    Assumptions.abort(message);
    throw new AssertionError(message);
  }

  /** Runs {@code command} in {@code directory}, at most 120 s, with nothing on its input. */
  static Result run(Path directory, List<String> command) throws IOException, InterruptedException {
    return run(directory, command, Map.of());
  }

  static Result run(Path directory, List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("deploy-tool", ".out");
    Path err = Files.createTempFile("deploy-tool", ".err");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(new ArrayList<>(command))
              .directory(directory.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish within 120 s");
      }
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Runs {@code command} and asserts it exited 0, showing what it printed otherwise. */
  static Result succeeds(Path directory, List<String> command)
      throws IOException, InterruptedException {
    Result result = run(directory, command);
    assertThat(result.exitCode())
        .as("%s exited %d:%n%s", String.join(" ", command), result.exitCode(), result.both())
        .isZero();
    return result;
  }
}
