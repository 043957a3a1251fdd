package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar writes nothing of its own on stdout or stderr: stdout holds the command's output
 * alone (a consumer pipes {@code snapshots rows} into another program), and stderr holds log events
 * in the documented format alone, not the logging library's report of how it configured itself.
 */
class ShippedJarOutputIT {

  private static final String EVENT_LINE =
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR) \\S+ .*";

  @TempDir Path directory;

  record Run(int exitCode, String stdout, String stderr) {}

  private Run run(String... arguments) throws Exception {
    return run(java.util.Map.of(), arguments);
  }

  private Run run(java.util.Map<String, String> environment, String... arguments) throws Exception {
    Path jar = Path.of(System.getProperty("dfe.fetcher.jar", "target/dfe-fetcher.jar"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(jar.toAbsolutePath().toString());
    command.addAll(List.of(arguments));
    Path out = directory.resolve("stdout.txt");
    Path err = directory.resolve("stderr.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("ended within 60 s").isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void versionPrintsOneLineAndNothingElse() throws Exception {
    Run version = run("--version");

    assertThat(version.exitCode()).isZero();
    assertThat(version.stdout()).matches("dfe-fetcher \\S+\\n");
    assertThat(version.stderr()).isEmpty();
  }

  @Test
  void aRunWritesNothingOnStdoutAndOnlyLogEventsAndItsSummaryOnStderr() throws Exception {
    writeOneUnitConfig();

    Run once = run("run", "--config", "config.yaml", "--once");

    assertThat(once.exitCode()).as(once.stderr()).isZero();
    assertThat(once.stdout()).isEmpty();
    assertThat(once.stderr().lines())
        .contains("ran 1 unit, 0 failed")
        .filteredOn(line -> !line.equals("ran 1 unit, 0 failed"))
        .isNotEmpty()
        .allMatch(line -> line.matches(EVENT_LINE));
  }

  @Test
  void inJsonFromTheEnvironmentEveryLogLineIsOneEventObject() throws Exception {
    writeOneUnitConfig();

    Run once =
        run(
            java.util.Map.of("DFE_FETCHER_LOG_FORMAT", "json"),
            "run",
            "--config",
            "config.yaml",
            "--once");

    assertThat(once.exitCode()).as(once.stderr()).isZero();
    assertThat(once.stdout()).isEmpty();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> events =
        once.stderr().lines().filter(line -> !line.equals("ran 1 unit, 0 failed")).toList();
    assertThat(events).isNotEmpty();
    for (String line : events) {
      com.fasterxml.jackson.databind.JsonNode event = json.readTree(line);
      assertThat(event.path("@timestamp").asText()).as(line).endsWith("Z");
      assertThat(event.path("log.level").asText()).as(line).isNotEmpty();
      assertThat(event.path("log.logger").asText()).as(line).startsWith("dfe.fetcher");
      assertThat(event.path("event").asText()).as(line).isNotEmpty();
    }
  }

  private void writeOneUnitConfig() throws Exception {
    Files.writeString(directory.resolve("hosts.ndjson"), "{\"id\":1}\n{\"id\":2}\n");
    Files.writeString(
        directory.resolve("config.yaml"),
        """
        instance_id: quiet
        output: {type: file, file: {directory: ./landing}}
        cursor: {directory: ./state}
        sources:
          file:
            inventory:
              topic: inventory
              units:
                - {unit: hosts, dump: {paths: [hosts.ndjson]}}
        """);
  }
}
