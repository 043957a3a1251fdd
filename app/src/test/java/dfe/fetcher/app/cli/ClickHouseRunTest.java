package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engine: clickhouse} through the real service, as a child process, against the ClickHouse
 * test server ({@code scripts/clickhouse-test-server.sh}, which {@code .ci/run} starts): a dump
 * lands as a complete snapshot, {@code config-check --probe} tells a wrong password from a right
 * one, and SIGTERM during a slow query ends the process at once, kills the query on the server and
 * leaves no {@code end}.
 */
class ClickHouseRunTest {

  private static final String URL = "http://127.0.0.1:18123";
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir Path directory;

  @BeforeAll
  static void server() throws Exception {
    if (answers()) {
      return;
    }
    Path script = Path.of("..", "scripts", "clickhouse-test-server.sh").toAbsolutePath();
    Process start = new ProcessBuilder("bash", script.toString(), "start").inheritIO().start();
    assertThat(start.waitFor()).as("%s start", script).isZero();
    await().atMost(Duration.ofSeconds(60)).until(ClickHouseRunTest::answers);
  }

  private static String config(String store) {
    return """
        instance_id: test
        output:
          file: {directory: landing}
        cursor: {directory: state}
        sources:
          db:
            ch:
              engine: clickhouse
              url: %s
              user: dfe
              password: file:ch-password
              topic: ch
              stores:
                - %s
        """
        .formatted(URL, store);
  }

  @Test
  void runOnceLandsAClickHouseDumpAsACompleteSnapshot() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            config(
                "{unit: numbers, shape: dump, query: \"SELECT number AS id, toString(number) AS"
                    + " name FROM numbers(1000)\", row_key: /id, count_first: true}"));
    Path log = directory.resolve("fetcher.log");
    Process fetcher = start(config, log, "--once");
    try {
      assertThat(fetcher.waitFor(60, TimeUnit.SECONDS)).as("exited; log:%n%s", read(log)).isTrue();
    } finally {
      fetcher.destroyForcibly();
    }
    assertThat(fetcher.exitValue()).as(read(log)).isZero();
    List<SnapshotReport> reports = workspace.reports("ch-numbers_land");
    assertThat(reports)
        .singleElement()
        .extracting(SnapshotReport::status)
        .isEqualTo(SnapshotStatus.COMPLETE);
    List<String> rows =
        workspace.reassembled("ch-numbers_land").rows(reports.get(0).snapshotId()).stream()
            .map(Object::toString)
            .toList();
    assertThat(rows).hasSize(1000);
    assertThat(rows.get(999)).isEqualTo("{\"id\":999,\"name\":\"999\"}");
    assertThat(read(log)).doesNotContain("dfe-secret");
  }

  @Test
  void configCheckProbeSaysWhetherTheClickHouseCredentialsWork() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config = workspace.config(config("{unit: one, shape: dump, query: \"SELECT 1 AS id\"}"));

    Files.writeString(directory.resolve("ch-password"), "dfe-secret");
    CliRun good = CliRun.of("config-check", "--probe", "--config", config.toString());
    assertThat(good.exitCode()).as(good.out() + good.err()).isZero();
    assertThat(good.out()).contains("  db ch: ok (SELECT 1 on " + URL + " as dfe answered 1)");

    Files.writeString(directory.resolve("ch-password"), "not-the-s3cret");
    CliRun bad = CliRun.of("config-check", "--probe", "--config", config.toString());
    assertThat(bad.exitCode()).as(bad.out() + bad.err()).isEqualTo(1);
    assertThat(bad.out())
        .contains("  db ch: refused (SELECT 1 on " + URL + " as dfe answered 401: Code: ")
        .contains("(check the connection's user and password))");
    assertThat(good.out() + good.err() + bad.out() + bad.err())
        .doesNotContain("dfe-secret", "not-the-s3cret");
    assertThat(workspace.landing()).doesNotExist();
    assertThat(workspace.state()).doesNotExist();
  }

  @Test
  void sigtermDuringASlowClickHouseQueryExitsAtOnceAndKillsTheQuery() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    // One row a block, each sleeping a second (18.16 caps sleep at 3 s a block): a query of
    // our own that runs for a day and answers nothing meanwhile.
    Path config =
        workspace.config(
            config(
                "{unit: slow, shape: dump, query: \"SELECT number AS id, sleepEachRow(1) AS z"
                    + " FROM numbers(86400)\", settings: {max_block_size: 1}}"));
    Path log = directory.resolve("fetcher.log");
    Process fetcher = start(config, log, "--once");
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> running() > 0 || !fetcher.isAlive());
      assertThat(fetcher.isAlive()).as("still running; log:%n%s", read(log)).isTrue();
      fetcher.destroy();
      assertThat(fetcher.waitFor(10, TimeUnit.SECONDS)).as("exited; log:%n%s", read(log)).isTrue();
    } finally {
      fetcher.destroyForcibly();
    }
    assertThat(fetcher.exitValue()).as(read(log)).isEqualTo(143);
    assertThat(read(log)).contains("unit ch.slow stopped before it finished");
    await().atMost(Duration.ofSeconds(10)).until(() -> running() == 0);
    Path landed = workspace.landing().resolve("ch-slow_land.ndjson");
    if (Files.exists(landed)) {
      assertThat(workspace.reports("ch-slow_land"))
          .allMatch(report -> report.status() == SnapshotStatus.OPEN);
    }
  }

  private Process start(Path config, Path log, String... extra) throws Exception {
    Files.writeString(directory.resolve("ch-password"), "dfe-secret");
    return ChildFetcher.run(directory, config, log, List.of(), extra);
  }

  private static int running() throws Exception {
    HttpResponse<String> response =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(URL + "/"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "SELECT count() FROM system.processes WHERE query_id LIKE 'dfe-ch.slow-%'"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return Integer.parseInt(response.body().trim());
  }

  private static boolean answers() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", 18123), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "(no log)";
  }
}
