package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.app.health.HealthServer;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dfe-fetcher status} against a service and its {@link HealthServer}, in this process. */
class StatusCommandTest {

  @TempDir Path directory;
  private FetcherService service;
  private HealthServer health;

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.close();
    }
    if (health != null) {
      health.close();
    }
  }

  private Path startService() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config = workspace.oneGoodOneBroken();
    FetcherConfig loaded = workspace.load(config);
    service = FetcherService.create(loaded, Clock.systemUTC());
    health = HealthServer.serve(service, loaded.metrics());
    service.start();
    return config;
  }

  @Test
  void statusPrintsEachUnitsLastTickOutcomeSuccessNextTickAndCheckpoint() throws Exception {
    startService();
    String address = "127.0.0.1:" + health.port();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              String out = CliRun.of("status", "--address", address).out();
              return out.contains("succeeded") && out.contains("failed") && out.contains(" (in ");
            });

    CliRun run = CliRun.of("status", "--address", address);

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0))
        .matches("UNIT +LAST TICK +OUTCOME +LAST SUCCESS +NEXT TICK +CHECKPOINT");
    assertThat(lines.get(1))
        .startsWith("inventory.hosts")
        .containsPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(\\d+s ago\\) +succeeded")
        .containsPattern("\\(in (59m\\d*s?|1h)\\)")
        .contains("file: last ")
        .contains("a.ndjson");
    assertThat(lines.get(2))
        .startsWith("broken.feed")
        .contains(" failed ")
        .contains("never")
        .contains("none: none");
    assertThat(lines.get(3))
        .startsWith("broken.feed: last tick failed: ")
        .contains("bad.ndjson:1")
        .contains("not valid JSON");
  }

  @Test
  void configWhoseMetricsAddressIsAnyFreePortIsAUsageErrorPointingToAddress() throws Exception {
    Path config = startService();

    CliRun run = CliRun.of("status", "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("listens on any free port: pass --address HOST:PORT");
  }

  @Test
  void configNamingTheAddressAsksThere() throws Exception {
    startService();
    Path config =
        new FetcherWorkspace(directory)
            .config(
                FetcherWorkspace.ONE_GOOD_ONE_BROKEN.replace(
                    "127.0.0.1:0", "0.0.0.0:" + health.port()));

    CliRun run = CliRun.of("status", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("inventory.hosts").contains("broken.feed");
  }

  @Test
  void aServiceThatDoesNotAnswerExitsOneSayingSo() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    CliRun run = CliRun.of("status", "--address", "127.0.0.1:" + port);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("http://127.0.0.1:" + port + "/status: cannot reach the service");
  }

  @Test
  void neitherConfigNorAddressIsAUsageError() {
    assertThat(CliRun.of("status").exitCode()).isEqualTo(2);
  }
}
