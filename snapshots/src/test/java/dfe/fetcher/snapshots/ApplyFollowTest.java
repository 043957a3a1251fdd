package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code snapshots apply --follow} as a child process: applies dumps as they land, counts them. */
class ApplyFollowTest {

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.withKafka();

  private PostgresSchema schema; // set by the fixture before each test
  @TempDir Path directory;

  @Test
  void followingAppliesEachDumpAsItCompletesAndCountsItOnMetrics() throws Exception {
    String topic = "apply-follow-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    Path log = directory.resolve("apply.log");
    List<String> command =
        fixture.applyFromTopic(topic, "--follow", "--metrics-address", "127.0.0.1:0");
    SnapshotFrames second = dump(STORE, 2, "{\"id\":\"c\"}");
    Process apply = ApplyFixture.start(command, log);
    try {
      Pattern listening = Pattern.compile("metrics on 127\\.0\\.0\\.1:(\\d+)");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> listening.matcher(read(log)).find() || !apply.isAlive());
      Matcher port = listening.matcher(read(log));
      assertThat(port.find()).as(read(log)).isTrue();

      fixture.produce(topic, 1, dump(STORE, 1, "{\"id\":\"a\"}", "{\"id\":\"b\"}").lines());
      await().atMost(Duration.ofSeconds(30)).until(() -> tableKeys().equals("a,b"));
      fixture.produce(topic, 1, second.withoutEnd());
      fixture.produce(
          topic, 1, second.lines().subList(second.lines().size() - 1, second.lines().size()));
      await().atMost(Duration.ofSeconds(30)).until(() -> tableKeys().equals("c"));

      String metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port.group(1) + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains(
              "dfe_fetcher_apply_snapshots_total{outcome=\"applied\",table=\""
                  + schema.table("hosts")
                  + "\"} 2.0")
          .contains("dfe_fetcher_apply_rows_total{table=\"" + schema.table("hosts") + "\"} 3.0");

      apply.destroy();
      assertThat(apply.waitFor(30, TimeUnit.SECONDS)).as(read(log)).isTrue();
    } finally {
      apply.destroyForcibly();
    }
    assertThat(read(log)).contains("applied snapshot=" + second.id());
  }

  @Test
  void aLostDatabaseConnectionIsRetriedCountedAndTheNextDumpApplied() throws Exception {
    String topic = "apply-retry-" + schema.name();
    fixture.kafka().createTopic(topic, 1, Map.of());
    Path log = directory.resolve("apply.log");
    String application = "apply-retry-" + schema.name();
    List<String> command =
        fixture.applyFromTopic(
            topic,
            "--follow",
            "--metrics-address",
            "127.0.0.1:0",
            "--db-property",
            "ApplicationName=" + application);
    Process apply = ApplyFixture.start(command, log);
    try {
      Pattern listening = Pattern.compile("metrics on 127\\.0\\.0\\.1:(\\d+)");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> listening.matcher(read(log)).find() || !apply.isAlive());
      Matcher port = listening.matcher(read(log));
      assertThat(port.find()).as(read(log)).isTrue();
      fixture.produce(topic, 1, dump(STORE, 1, "{\"id\":\"a\"}").lines());
      await().atMost(Duration.ofSeconds(30)).until(() -> tableKeys().equals("a"));

      assertThat(
              schema.scalar(
                  "SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity"
                      + " WHERE application_name = '"
                      + application
                      + "'"))
          .isEqualTo("1");
      fixture.produce(topic, 1, dump(STORE, 2, "{\"id\":\"b\"}").lines());

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> tableKeys().equals("b") || !apply.isAlive());
      assertThat(apply.isAlive()).as(read(log)).isTrue();
      assertThat(tableKeys()).isEqualTo("b");
      assertThat(read(log)).contains("retrying attempt=1");
      String metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port.group(1) + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains(
              "dfe_fetcher_apply_retries_total{cause=\"database\",table=\""
                  + schema.table("hosts")
                  + "\"} 1.0");
      apply.destroy();
      assertThat(apply.waitFor(30, TimeUnit.SECONDS)).as(read(log)).isTrue();
    } finally {
      apply.destroyForcibly();
    }
  }

  /** The table's keys; none while apply has not created it yet (metrics are served first). */
  private String tableKeys() throws Exception {
    try {
      String keys = schema.scalar("SELECT string_agg(id, ',' ORDER BY id) FROM ${schema}.hosts");
      return keys == null ? "" : keys;
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) {
        return "";
      }
      throw e;
    }
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "";
  }
}
