package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --once} on a PostgreSQL dump with {@code count_first}, in a tmux pane through the
 * launcher: the count the dump announces is the progress line's total, so the line ends at all of
 * it, with its share and an ETA.
 */
class ProgressOfADatabaseDumpIT {

  private static final Pattern FINAL_LINE =
      Pattern.compile("run  100%  150,000/150,000 rows  [0-9,.]+ rows/s  ETA 0:00");

  @TempDir Path directory;
  private String database;

  @BeforeEach
  void createDatabase() throws Exception {
    TmuxPane.requireTmux();
    TmuxPane.checkout(directory);
    database = "dfe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    execute("test", "CREATE DATABASE " + database);
    execute(
        database,
        "CREATE TABLE accounts (id integer PRIMARY KEY, name text)",
        "INSERT INTO accounts SELECT i, 'account ' || i FROM generate_series(1, 150000) AS i");
    Files.writeString(
        directory.resolve("config.yaml"),
        """
        instance_id: test
        output:
          file: {directory: landing}
        cursor: {directory: state}
        sources:
          db:
            crm:
              url: "jdbc:postgresql://127.0.0.1:5432/%s"
              user: postgres
              topic: crm
              stores:
                - unit: accounts
                  shape: dump
                  query: "SELECT * FROM accounts"
                  row_key: /id
                  count_first: true
        """
            .formatted(database));
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    execute("test", "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
  }

  @Test
  void theCountTheDumpAnnouncedIsTheTotalOfTheProgressLine() throws Exception {
    try (TmuxPane pane = TmuxPane.run(directory, "./dfe-fetcher run --config config.yaml --once")) {
      await("the run's exit in the pane")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertThat(pane.lines()).as(pane.text()).contains("EXIT=0"));

      assertThat(pane.lines()).as(pane.text()).anyMatch(line -> FINAL_LINE.matcher(line).matches());
      assertThat(pane.lines()).as(pane.text()).contains("ran 1 unit, 0 failed");
    }
  }

  private static void execute(String database, String... statements) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/" + database + "?user=postgres");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }
}
