package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of the README and {@code docs/} works as written. A fenced {@code yaml} block is a
 * configuration, loaded and checked as {@code config-check} does; a fenced {@code sh} block runs
 * here, line by line, through {@code bash} in a fresh directory holding what a clone holds, with
 * {@code ./dfe-fetcher} the launcher a clone has and the runnable jar this build packaged (so a
 * dependency missing from the jar fails here, as it would for a user; hence an integration test,
 * run after {@code package}). A block that cannot run here says so on the line above it: {@code
 * <!-- example: needs a cluster -->}, {@code needs a credential}, or {@code not run} (with the
 * reason after it). What stands in for what a developer machine has: the test's own Kafka broker
 * for {@code scripts/local-kafka.sh}, its address for {@code 127.0.0.1:9092}.
 */
class DocumentedExamplesIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  // A marker's reason may hold a '>' of its own ("under sources.rest.<id>").
  private static final Pattern MARKER = Pattern.compile("<!-- example: (.*?) -->");
  private static final Pattern ENV_SECRET = Pattern.compile("env:([A-Z_][A-Z0-9_]*)");
  private static final String LOCAL_BROKER = "127.0.0.1:9092";

  @TempDir Path directory;

  /** A fenced block: its language, its lines, the marker above it, where it is. */
  record Block(String language, List<String> lines, String marker, String heading, String place) {

    boolean runsHere() {
      return marker.isEmpty();
    }
  }

  static List<Block> blocks(Path markdown) throws IOException {
    List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    String heading = "";
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("#")) {
        heading = line.replaceFirst("^#+\\s*", "");
      }
      if (line.startsWith("```") && line.length() > 3) {
        String language = line.substring(3).trim();
        String marker = "";
        for (int back = i - 1; back >= 0 && back >= i - 2; back--) {
          Matcher found = MARKER.matcher(lines.get(back));
          if (found.find()) {
            marker = found.group(1);
          }
        }
        List<String> body = new ArrayList<>();
        int start = i + 1;
        for (i = start; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
          body.add(lines.get(i));
        }
        blocks.add(
            new Block(language, body, marker, heading, ROOT.relativize(markdown) + ":" + start));
      }
    }
    return blocks;
  }

  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(ROOT.resolve("README.md"));
    // docs/ and its folders (docs/providers/ holds a setup guide per shipped profile).
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  @Test
  void everyConfigurationInTheDocsLoadsAsConfigCheckLoadsIt() throws Exception {
    int checked = 0;
    for (Path document : documents()) {
      for (Block block : blocks(document)) {
        if (!block.language().equals("yaml") || !block.runsHere()) {
          continue;
        }
        String yaml = String.join("\n", block.lines()) + "\n";
        Map<String, String> environment = new HashMap<>();
        Matcher secret = ENV_SECRET.matcher(yaml);
        while (secret.find()) {
          environment.put(secret.group(1), "an-example-value");
        }
        Path config = Files.writeString(directory.resolve("example-" + checked + ".yaml"), yaml);
        try {
          FetcherService.checkConfig(config, environment);
        } catch (ConfigException e) {
          throw new AssertionError(block.place() + ": the example is refused: " + e.problems(), e);
        }
        checked++;
      }
    }
    assertThat(checked).as("configurations found in the docs").isGreaterThanOrEqualTo(4);
  }

  @Test
  void everyCommandBlockIsMarkedOrRunsAsWritten() throws Exception {
    for (Path document : documents()) {
      for (Block block : blocks(document)) {
        if (block.language().equals("sh") && block.runsHere()) {
          assertThat(runnableSections())
              .as(
                  block.place()
                      + " runs here unless marked (<!-- example: needs a cluster -->): this test"
                      + " must run it")
              .contains(block.place());
        }
      }
    }
  }

  /** The blocks {@link #theReadmeRunsAsWrittenInTheOrderWritten} and others here run. */
  private static List<String> runnableSections() throws IOException {
    List<String> places = new ArrayList<>();
    for (Block block : blocks(ROOT.resolve("README.md"))) {
      if (block.language().equals("sh") && block.runsHere()) {
        places.add(block.place());
      }
    }
    for (Block block : blocks(ROOT.resolve("docs/configuration.md"))) {
      if (block.language().equals("sh") && block.runsHere()) {
        places.add(block.place());
      }
    }
    return places;
  }

  @Test
  void theReadmeRunsAsWrittenInTheOrderWritten() throws Exception {
    Path clone = freshCheckout();
    List<Block> readme = blocks(ROOT.resolve("README.md"));
    try (LocalKafka kafka = LocalKafka.startCreatingTopics()) {
      for (Block block : readme) {
        if (block.language().equals("yaml") && block.heading().equals("Your own files")) {
          Files.writeString(clone.resolve("my.yaml"), String.join("\n", block.lines()) + "\n");
        }
        if (!block.language().equals("sh") || !block.runsHere()) {
          continue;
        }
        List<String> printed = new ArrayList<>();
        for (String command : commands(block)) {
          if (command.startsWith("scripts/local-kafka.sh")) {
            continue; // the test's broker stands in for the local one
          }
          if (command.startsWith("mvn ")) {
            continue; // this test is part of that run
          }
          Run run = run(clone, command.replace(LOCAL_BROKER, kafka.bootstrapServers()), kafka);
          assertThat(run.exitCode())
              .as(
                  block.place()
                      + ": `"
                      + command
                      + "` exited "
                      + run.exitCode()
                      + ":\n"
                      + run.output())
              .isZero();
          printed.add(run.stdout());
        }
        if (block.heading().equals("Quickstart")) {
          assertThat(String.join("", printed))
              .as(block.place() + ": the summary the README shows")
              .contains(summaryLineShownAfter(readme, block));
        }
      }
    }
  }

  @Test
  void theConfigurationReferencesCommandsRunAsWritten() throws Exception {
    Path clone = freshCheckout();
    for (Block block : blocks(ROOT.resolve("docs/configuration.md"))) {
      if (!block.language().equals("sh") || !block.runsHere()) {
        continue;
      }
      for (String command : commands(block)) {
        Run run = run(clone, command, null);
        assertThat(run.exitCode())
            .as(block.place() + ": `" + command + "`:\n" + run.output())
            .isZero();
      }
    }
  }

  /** The line {@code N snapshots: ...} of the console block that follows {@code block}. */
  private static String summaryLineShownAfter(List<Block> readme, Block block) {
    int at = readme.indexOf(block);
    for (Block next : readme.subList(at + 1, readme.size())) {
      if (next.language().equals("console")) {
        return next.lines().stream()
            .filter(line -> line.matches("\\d+ snapshots: .*"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(next.place() + ": no summary line"));
      }
    }
    throw new AssertionError(block.place() + ": no console block shows what it prints");
  }

  /** The block's commands: comments dropped, continued lines joined. */
  private static List<String> commands(Block block) {
    List<String> commands = new ArrayList<>();
    StringBuilder command = new StringBuilder();
    for (String line : block.lines()) {
      String text = line.replaceFirst("\\s+#.*$", "").replaceFirst("^#.*$", "").strip();
      if (text.isEmpty()) {
        continue;
      }
      if (text.endsWith("\\")) {
        command.append(text, 0, text.length() - 1).append(' ');
        continue;
      }
      command.append(text);
      commands.add(command.toString());
      command.setLength(0);
    }
    return commands;
  }

  /**
   * What a fresh clone holds that the examples read: the configuration, the examples, the launcher,
   * and the runnable jar where the launcher finds it (a link to this build's, which the launcher
   * takes as up to date: the directory holds no source newer than it).
   */
  private Path freshCheckout() throws IOException {
    Path clone = Files.createDirectories(directory.resolve("clone"));
    Files.copy(ROOT.resolve("config.example.yaml"), clone.resolve("config.example.yaml"));
    copyTree(ROOT.resolve("examples"), clone.resolve("examples"));
    Files.copy(
        ROOT.resolve("dfe-fetcher"),
        clone.resolve("dfe-fetcher"),
        StandardCopyOption.COPY_ATTRIBUTES);
    Path jar = Path.of(System.getProperty("dfe.fetcher.jar", "target/dfe-fetcher.jar"));
    assertThat(jar).as("the runnable jar `mvn package` builds").isRegularFile();
    Path target = Files.createDirectories(clone.resolve("app/target"));
    Files.createSymbolicLink(target.resolve("dfe-fetcher.jar"), jar.toAbsolutePath());
    return clone;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  record Run(int exitCode, String stdout, String output) {}

  private static Run run(Path clone, String command, LocalKafka kafka) throws Exception {
    Path out = Files.createTempFile(clone, "stdout", ".txt");
    Path err = Files.createTempFile(clone, "stderr", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", command)
            .directory(clone.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    if (kafka != null) {
      builder
          .environment()
          .put("DFE_FETCHER_OUTPUT__KAFKA__BOOTSTRAP_SERVERS", kafka.bootstrapServers());
    }
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("`" + command + "` did not end within 120 s");
    }
    String stdout = Files.readString(out);
    return new Run(process.exitValue(), stdout, stdout + Files.readString(err));
  }
}
