package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfe-fetcher top} as a user sees it: the real launcher in a tmux pane, watching a fetcher
 * the launcher runs as a service on a port picked free for the test.
 */
class TopCommandIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Pattern HOSTS_ROW =
      Pattern.compile(
          "inventory\\.hosts +\\d\\d:\\d\\d:\\d\\d \\(\\d+s ago\\) +[0-9.,]+ +complete +\\d+s +0");
  private static final Pattern SITES_ROW =
      Pattern.compile(
          "sites\\.sites +\\d\\d:\\d\\d:\\d\\d \\(\\d+s ago\\) +[0-9.,]+ +complete +\\d+s +0");

  @TempDir Path directory;
  private Process fetcher;
  private int port;

  @BeforeEach
  void setUp() throws IOException {
    TmuxPane.requireTmux();
    TmuxPane.checkout(directory);
    port = freePort();
    Files.writeString(
        directory.resolve("config.yaml"),
        """
        instance_id: test
        output:
          file: {directory: landing}
        cursor: {directory: state}
        metrics: {address: "127.0.0.1:%d"}
        sources:
          file:
            inventory:
              topic: inventory
              interval_secs: 1
              units:
                - unit: hosts
                  dump: {paths: [data/hosts/*.ndjson]}
            sites:
              topic: sites
              interval_secs: 1
              units:
                - unit: sites
                  dump: {paths: [data/sites/*.csv]}
        """
            .formatted(port));
    Files.createDirectories(directory.resolve("data/hosts"));
    Files.createDirectories(directory.resolve("data/sites"));
    Files.writeString(directory.resolve("data/hosts/a.ndjson"), "{\"id\":1}\n{\"id\":2}\n");
    Files.writeString(directory.resolve("data/sites/sites.csv"), "id,name\ns1,Berlin\n");
  }

  @AfterEach
  void stopTheFetcher() throws InterruptedException {
    if (fetcher != null && fetcher.isAlive()) {
      fetcher.destroy();
      if (!fetcher.waitFor(30, TimeUnit.SECONDS)) {
        fetcher.destroyForcibly();
      }
    }
  }

  @Test
  void topShowsARowPerUnitAndQQuits() throws Exception {
    startTheFetcher();

    try (TmuxPane pane =
        TmuxPane.run(directory, "./dfe-fetcher top --config config.yaml --interval 0.5")) {
      await("a row per unit in the pane")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () ->
                  assertThat(pane.lines())
                      .as(pane.text())
                      .contains(
                          "UNIT             LAST SUCCESS       ROWS/S  LAST SNAPSHOT  CHECKPOINT AGE"
                              + "  FAILURES")
                      .anyMatch(line -> HOSTS_ROW.matcher(line).matches())
                      .anyMatch(line -> SITES_ROW.matcher(line).matches()));
      assertThat(pane.lines())
          .as(pane.text())
          .anyMatch(
              line ->
                  line.startsWith(
                      "dfe-fetcher top  http://127.0.0.1:" + port + "/metrics  every 0.5s  ready"));

      pane.send("q");

      await("top quits on q")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));
    }
  }

  @Test
  void aFetcherThatGoesAwayIsSaidOnTheScreenAndCtrlCQuits() throws Exception {
    startTheFetcher();
    try (TmuxPane pane =
        TmuxPane.run(
            directory,
            "./dfe-fetcher top --url http://127.0.0.1:" + port + "/metrics --interval 0.5")) {
      await("a unit's row")
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(pane.lines())
                      .as(pane.text())
                      .anyMatch(line -> HOSTS_ROW.matcher(line).matches()));

      fetcher.destroy();
      assertThat(fetcher.waitFor(30, TimeUnit.SECONDS)).as("the fetcher stopped").isTrue();

      await("the screen says the metrics cannot be read")
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(pane.lines())
                      .as(pane.text())
                      .contains("cannot read the metrics: ConnectException; trying again"));
      pane.send("C-c");
      await("top quits on Ctrl-C")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));
    }
  }

  @Test
  void anEndpointThatCannotBeReachedIsSaidAndTopExitsOne() throws Exception {
    String url = "http://127.0.0.1:" + port + "/metrics";
    try (TmuxPane pane = TmuxPane.run(directory, "./dfe-fetcher top --url " + url)) {
      await("top's exit")
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=1"));

      assertThat(pane.lines())
          .as(pane.text())
          .contains(url + ": cannot read the metrics (is the fetcher running?): ConnectException");
    }
  }

  private void startTheFetcher() throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder("./dfe-fetcher", "run", "--config", "config.yaml")
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("fetcher.log").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    fetcher = builder.start();
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest metrics =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build();
    await("the fetcher serves /metrics")
        .atMost(WAIT)
        .ignoreExceptionsInstanceOf(IOException.class)
        .until(
            () ->
                fetcher.isAlive()
                    && http.send(metrics, HttpResponse.BodyHandlers.discarding()).statusCode()
                        == 200);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
