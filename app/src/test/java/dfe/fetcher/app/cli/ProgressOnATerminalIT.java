package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.progress.ProgressLine;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line as a user sees it: the real launcher in a tmux pane, on a file dump big enough
 * to take a few seconds; and nothing of it when stderr is a file, unless forced.
 */
class ProgressOnATerminalIT {

  private static final int ROWS = 200_000;
  private static final String CONFIG =
      """
      instance_id: test
      output:
        file: {directory: landing}
      cursor: {directory: state}
      sources:
        file:
          inventory:
            topic: inventory
            units:
              - unit: hosts
                row_key: /id
                dump: {paths: [data/hosts/*.ndjson]}
      """;
  private static final String LANDED = "landing/inventory-hosts_land.ndjson";
  private static final Pattern RUN_LINE = Pattern.compile("run  [0-9,]+ rows.*");
  private static final Pattern FINAL_RUN_LINE =
      Pattern.compile(
          "run  100%  200,000 rows  8\\.9 MiB/8\\.9 MiB  [0-9,.]+ rows/s  [0-9.]+ [KMG]?i?B/s"
              + "  ETA 0:00");
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path directory;

  @BeforeEach
  void setUp() throws IOException {
    TmuxPane.requireTmux();
    TmuxPane.checkout(directory);
    Files.writeString(directory.resolve("config.yaml"), CONFIG);
    Path data = Files.createDirectories(directory.resolve("data/hosts"));
    try (BufferedWriter out =
        Files.newBufferedWriter(data.resolve("hosts.ndjson"), StandardCharsets.UTF_8)) {
      for (int i = 0; i < ROWS; i++) {
        out.write("{\"id\":" + i + ",\"name\":\"host-" + i + "\",\"rack\":\"r" + i % 40 + "\"}\n");
      }
    }
  }

  @Test
  void runOnceDrawsItsProgressOnTheTerminalAndEndsWithEveryRow() throws Exception {
    try (TmuxPane pane = TmuxPane.run(directory, "./dfe-fetcher run --config config.yaml --once")) {
      await("the progress line, then the exit, in the pane")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));

      List<String> lines = pane.lines();
      assertThat(lines).as(pane.text()).anyMatch(line -> FINAL_RUN_LINE.matcher(line).matches());
      assertThat(lines).as(pane.text()).contains("ran 1 unit, 0 failed");
      // The progress line ends before the summary: it is not left running into it.
      assertThat(lines.indexOf("ran 1 unit, 0 failed"))
          .isGreaterThan(indexOfMatch(lines, FINAL_RUN_LINE));
    }
  }

  @Test
  void verifyShowsTheShareOfTheFileItReadAndEndsAtAllOfIt() throws Exception {
    landTheDump();
    long size = Files.size(directory.resolve(LANDED));
    String total = Pattern.quote(ProgressLine.bytes(size) + "/" + ProgressLine.bytes(size));
    Pattern finalLine =
        Pattern.compile(
            "verify  100%  200,002 rows  "
                + total
                + "  [0-9,.]+ rows/s  [0-9.]+ [KMG]?i?B/s  ETA 0:00");

    try (TmuxPane pane = TmuxPane.run(directory, "./dfe-fetcher snapshots verify " + LANDED)) {
      await("verify's exit in the pane")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));

      assertThat(pane.lines()).as(pane.text()).anyMatch(line -> finalLine.matcher(line).matches());
      assertThat(pane.lines())
          .as(pane.text())
          .contains("1 snapshot: 1 complete, 0 truncated, 0 open, 0 conflict; 0 lines not a frame");
    }
  }

  @Test
  void stderrRedirectedToAFileGetsNoProgress() throws Exception {
    try (TmuxPane pane =
        TmuxPane.run(directory, "./dfe-fetcher run --config config.yaml --once 2>stderr.txt")) {
      await("the exit in the pane")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));

      String stderr = Files.readString(directory.resolve("stderr.txt"));
      assertThat(stderr)
          .contains("ran 1 unit, 0 failed")
          .doesNotContain("\r")
          .doesNotContain("rows/s");
      assertThat(pane.lines()).noneMatch(line -> RUN_LINE.matcher(line).matches());
    }
  }

  @Test
  void progressAlwaysDrawsIntoAFileAndTheVariableNeverKeepsATerminalClear() throws Exception {
    try (TmuxPane pane =
        TmuxPane.run(
            directory,
            "./dfe-fetcher run --config config.yaml --once --progress=always 2>stderr.txt"
                + " && DFE_FETCHER_PROGRESS=never ./dfe-fetcher run --config config.yaml --once"
                + " && DFE_FETCHER_PROGRESS=never ./dfe-fetcher snapshots verify "
                + LANDED)) {
      await("every exit in the pane")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));

      assertThat(Files.readString(directory.resolve("stderr.txt")))
          .containsPattern(
              "\rrun  100%  200,000 rows  8\\.9 MiB/8\\.9 MiB  [0-9,.]+ rows/s  [0-9.]+ [KMG]?i?B/s"
                  + "  ETA 0:00\\e\\[K\r\n");
      // The second run finds the file committed: it would have drawn "run  0 rows".
      assertThat(pane.lines()).as(pane.text()).contains("ran 1 unit, 0 failed");
      assertThat(pane.lines()).as(pane.text()).noneMatch(line -> line.startsWith("run  "));
      assertThat(pane.lines()).as(pane.text()).noneMatch(line -> line.startsWith("verify "));
      assertThat(pane.lines())
          .as(pane.text())
          .anyMatch(line -> line.startsWith("1 snapshot: 1 complete"));
    }
  }

  private void landTheDump() throws Exception {
    try (TmuxPane pane =
        TmuxPane.run(directory, "./dfe-fetcher run --config config.yaml --once --progress=never")) {
      await("the dump landed")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));
    }
  }

  private static int indexOfMatch(List<String> lines, Pattern pattern) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (pattern.matcher(lines.get(i)).matches()) {
        return i;
      }
    }
    return -1;
  }
}
