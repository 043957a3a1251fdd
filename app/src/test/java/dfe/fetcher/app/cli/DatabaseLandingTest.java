package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code sources.db} through the real service: {@code dfe-fetcher run --once} against a PostgreSQL
 * database of the test's own, twice, landing on the file output; every landed snapshot reassembled.
 */
class DatabaseLandingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String URL_SECRET = "urlS3cretPw";
  private static final String FIELD_SECRET = "fieldS3cretPw";

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private String database;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void createDatabase() throws SQLException {
    workspace = new FetcherWorkspace(directory);
    database = "dfe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    admin("CREATE DATABASE " + database);
    execute(
        "CREATE TABLE accounts (id integer PRIMARY KEY, name text, balance numeric(12,2),"
            + " opened timestamptz)",
        "INSERT INTO accounts VALUES (1, 'Ada', 10.50, '2026-05-01 12:00:00.123456+02'),"
            + " (2, 'Bob', 0.00, '2026-05-02 00:00:00Z')",
        "CREATE TABLE events (id bigint PRIMARY KEY, note text)",
        "INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, repeat('x', 400)), (4, 'd'), (5, 'e')");
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    root.detachAppender(logs);
    admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
  }

  @Test
  void aDumpStoreLandsCompleteSnapshotsAndATailLandsEachRowOnceAcrossRuns() throws Exception {
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                oversize: {max_record_bytes: 300, max_dlq_bytes: 64}
                sources:
                  db:
                    crm:
                      url: "jdbc:postgresql://127.0.0.1:5432/%s?password=%s"
                      user: postgres
                      password: %s
                      topic: crm
                      stores:
                        - unit: accounts
                          shape: dump
                          query: "SELECT * FROM accounts ORDER BY id"
                          row_key: /id
                          count_first: true
                        - unit: events
                          shape: tail
                          query: "SELECT id, note FROM events"
                          key: [id]
                          row_key: /id
                          limit: 2
                """
                    .formatted(database, URL_SECRET, FIELD_SECRET));

    Run first = run(config);
    assertThat(first.exitCode()).as(first.err()).isZero();
    execute(
        "INSERT INTO events VALUES (6, 'f'), (7, 'g')",
        "UPDATE accounts SET balance = 99.99 WHERE id = 2");
    Run second = run(config);
    assertThat(second.exitCode()).as(second.err()).isZero();

    List<SnapshotReport> reports = workspace.reports("crm-accounts_land");
    assertThat(reports).hasSize(2).allMatch(r -> r.status() == SnapshotStatus.COMPLETE);
    assertThat(workspace.completeSnapshotRows("crm-accounts_land"))
        .containsExactly(
            List.of(
                "{\"id\":1,\"name\":\"Ada\",\"balance\":10.50,"
                    + "\"opened\":\"2026-05-01T10:00:00.123456Z\"}",
                "{\"id\":2,\"name\":\"Bob\",\"balance\":0.00,"
                    + "\"opened\":\"2026-05-02T00:00:00.000000Z\"}"),
            List.of(
                "{\"id\":1,\"name\":\"Ada\",\"balance\":10.50,"
                    + "\"opened\":\"2026-05-01T10:00:00.123456Z\"}",
                "{\"id\":2,\"name\":\"Bob\",\"balance\":99.99,"
                    + "\"opened\":\"2026-05-02T00:00:00.000000Z\"}"));
    assertThat(beginTotals("crm-accounts_land")).containsExactly(2L, 2L);

    assertThat(ids(workspace.lines("crm_land")))
        .as("the oversize row 3 is skipped, everything else once")
        .containsExactly(1L, 2L, 4L, 5L, 6L, 7L);
    List<JsonNode> dlq = parse(workspace.lines("dfe_fetcher_dlq"));
    assertThat(dlq).hasSize(1);
    assertThat(dlq.get(0).get("store").asText()).isEqualTo("crm.events");
    assertThat(dlq.get(0).get("reason").asText()).startsWith("row exceeds max_record_bytes");

    assertNoSecretIn(first.err() + second.err());
  }

  @Test
  void aDatabaseThatRefusesTheQueryFailsTheRunWithoutAPassword() throws Exception {
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  db:
                    crm:
                      url: "jdbc:postgresql://127.0.0.1:5432/%s?user=postgres&password=%s"
                      password: %s
                      topic: crm
                      stores:
                        - {unit: missing, shape: dump, query: "SELECT * FROM no_such_table"}
                """
                    .formatted(database, URL_SECRET, FIELD_SECRET));

    Run run = run(config);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("crm.missing").contains("42P01");
    assertNoSecretIn(run.err());
    assertThat(workspace.reports("crm-missing_land"))
        .noneMatch(r -> r.status() == SnapshotStatus.COMPLETE);
  }

  /** The annotated example, copied beside its examples/, lands its H2 warehouse with no server. */
  @Test
  void theExampleConfigurationLandsItsEmbeddedWarehouse() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Files.copy(root.resolve("config.example.yaml"), directory.resolve("config.example.yaml"));
    copyTree(root.resolve("examples"), directory.resolve("examples"));

    Run run = run(directory.resolve("config.example.yaml"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<List<String>> stock = workspace.completeSnapshotRows("warehouse-stock_land");
    assertThat(stock).hasSize(1);
    assertThat(stock.get(0))
        .hasSize(4)
        .first()
        .isEqualTo(
            "{\"sku\":\"SKU-0001\",\"name\":\"hex bolt M8\",\"quantity\":1200,"
                + "\"unit_price\":0.0450,\"counted_at\":\"2026-05-01T08:00:00.123456Z\","
                + "\"discontinued\":false}");
    assertThat(ids(workspace.lines("warehouse_land"))).containsExactly(1L, 2L, 3L, 4L);
  }

  private void assertNoSecretIn(String printed) {
    List<String> everything = new ArrayList<>();
    everything.add(printed);
    for (ILoggingEvent event : logs.list) {
      everything.add(event.getFormattedMessage());
      for (var cause = event.getThrowableProxy(); cause != null; cause = cause.getCause()) {
        everything.add(cause.getMessage());
      }
    }
    for (Path file : listFiles(directory.resolve("landing"))) {
      everything.add(read(file));
    }
    for (Path file : listFiles(directory.resolve("state"))) {
      everything.add(read(file));
    }
    assertThat(String.join("\n", everything))
        .doesNotContain(URL_SECRET)
        .doesNotContain(FIELD_SECRET);
  }

  private List<Long> beginTotals(String topic) throws IOException {
    List<Long> totals = new ArrayList<>();
    for (JsonNode frame : parse(workspace.lines(topic))) {
      if (frame.get("kind").asText().equals("begin")) {
        totals.add(frame.path("total").asLong(-1));
      }
    }
    return totals;
  }

  private static List<Long> ids(List<String> lines) throws IOException {
    return parse(lines).stream().map(record -> record.get("id").asLong()).toList();
  }

  private static List<JsonNode> parse(List<String> lines) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : lines) {
      nodes.add(JSON.readTree(line));
    }
    return nodes;
  }

  record Run(int exitCode, String err) {}

  private static Run run(Path config) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode =
        DfeFetcher.run(
            new String[] {"run", "--config", config.toString(), "--once"},
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exitCode, err.toString(StandardCharsets.UTF_8));
  }

  private void execute(String... statements) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/" + database + "?user=postgres");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  private static void admin(String sql) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static List<Path> listFiles(Path directory) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target);
        }
      }
    }
  }
}
