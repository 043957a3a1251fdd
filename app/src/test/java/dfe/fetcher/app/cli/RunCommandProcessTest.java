package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfe-fetcher run} as a real child process, so signals and exit codes are the real ones and
 * the test JVM's own signal handling is left alone.
 */
class RunCommandProcessTest {

  private static final String TOPIC = "inventory-hosts_land";

  /** One file unit landing on the file output in batches of 100 rows, so a dump takes a while. */
  private static final String SMALL_BATCHES =
      """
      instance_id: test
      output:
        file: {directory: landing}
        batch: {max_rows: 100}
      cursor: {directory: state}
      sources:
        file:
          inventory:
            topic: inventory
            units:
              - unit: hosts
                dump: {paths: [data/hosts/*.ndjson]}
      """;

  @TempDir Path directory;

  @Test
  void sigtermStopsTheServiceWithExitZeroLeavingNoConflictAndTheCheckpoint() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    workspace.write("data/hosts/1-small.ndjson", FetcherWorkspace.ndjson("{\"id\":0}"));
    // Large enough that SIGTERM usually arrives while it is being landed; either way is valid.
    workspace.write("data/hosts/2-large.ndjson", hosts(1, 50_000));
    Path config =
        workspace.config(
            SMALL_BATCHES
                + """
            metrics: {address: "127.0.0.1:0"}
            """);
    Path cursor = workspace.state().resolve("test.inventory.hosts.json");
    Path log = directory.resolve("fetcher.log");

    Process fetcher = start(config, log);
    try {
      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> Files.exists(cursor) || !fetcher.isAlive());
      assertThat(fetcher.isAlive()).as("still running; log:%n%s", read(log)).isTrue();

      fetcher.destroy();

      assertThat(fetcher.waitFor(10, TimeUnit.SECONDS)).as("exited; log:%n%s", read(log)).isTrue();
      assertThat(fetcher.exitValue()).as(read(log)).isZero();
    } finally {
      fetcher.destroyForcibly();
    }

    assertThat(read(log)).contains("event=stopped");
    assertThat(cursor).isRegularFile();
    List<SnapshotReport> reports = workspace.reports(TOPIC);
    assertThat(reports)
        .extracting(SnapshotReport::status)
        .first()
        .isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(reports)
        .extracting(SnapshotReport::status)
        .allMatch(status -> status == SnapshotStatus.COMPLETE || status == SnapshotStatus.OPEN);
    assertThat(workspace.reassembled(TOPIC).rows(reports.get(0).snapshotId()))
        .extracting(Object::toString)
        .containsExactly("{\"id\":0}");
  }

  @Test
  void aMetricsAddressInUseExitsTwoNamingItWithoutAStackTrace() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Path config =
          new FetcherWorkspace(directory)
              .config(
                  """
                  metrics: {address: "127.0.0.1:%d"}
                  sources:
                    file:
                      inventory:
                        topic: inventory
                        units:
                          - unit: hosts
                            dump: {paths: [data/hosts/*.ndjson]}
                  """
                      .formatted(taken.getLocalPort()));
      Path log = directory.resolve("fetcher.log");

      Process fetcher = start(config, log);
      try {
        assertThat(fetcher.waitFor(15, TimeUnit.SECONDS))
            .as("exited; log:%n%s", read(log))
            .isTrue();
      } finally {
        fetcher.destroyForcibly();
      }

      assertThat(fetcher.exitValue()).as(read(log)).isEqualTo(2);
      assertThat(read(log))
          .contains(
              config + ": metrics.address 127.0.0.1:" + taken.getLocalPort() + ": cannot listen: ")
          .doesNotContain("\tat ")
          .doesNotContain("event=started");
    }
  }

  @Test
  void sigtermDuringRunOnceLeavesTheDumpOpenAndExitsZero() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    workspace.write("data/hosts/large.ndjson", hosts(0, 300_000));
    Path config = workspace.config(SMALL_BATCHES);
    Path landed = workspace.landing().resolve(TOPIC + ".ndjson");
    Path log = directory.resolve("fetcher.log");

    Process fetcher = start(config, log, "--once");
    try {
      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> Files.exists(landed) || !fetcher.isAlive());
      fetcher.destroy();
      assertThat(fetcher.waitFor(10, TimeUnit.SECONDS)).as("exited; log:%n%s", read(log)).isTrue();
    } finally {
      fetcher.destroyForcibly();
    }

    List<SnapshotStatus> statuses =
        workspace.reports(TOPIC).stream().map(SnapshotReport::status).toList();
    assertThat(statuses)
        .containsAnyOf(SnapshotStatus.OPEN, SnapshotStatus.COMPLETE)
        .allMatch(status -> status == SnapshotStatus.COMPLETE || status == SnapshotStatus.OPEN);
    if (statuses.contains(SnapshotStatus.OPEN)) {
      // Cut short: the shell's status for SIGTERM, and the unit named.
      assertThat(fetcher.exitValue()).as(read(log)).isEqualTo(143);
      assertThat(read(log))
          .contains("unit inventory.hosts stopped before it finished")
          .contains("1 stopped");
    } else {
      // The signal came after the dump ended: every unit finished, nothing was cut.
      assertThat(fetcher.exitValue()).as(read(log)).isIn(0, 143);
    }
  }

  /** Host records with ids {@code from} to {@code to} (exclusive), one a line. */
  private static String hosts(int from, int to) {
    return IntStream.range(from, to)
        .mapToObj(i -> "{\"id\":" + i + ",\"name\":\"host-" + i + "\"}")
        .collect(Collectors.joining("\n", "", "\n"));
  }

  private Process start(Path config, Path log, String... extra) throws Exception {
    return ChildFetcher.run(directory, config, log, List.of(), extra);
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "(no log)";
  }
}
