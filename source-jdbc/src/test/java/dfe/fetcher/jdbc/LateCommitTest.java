package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The trap every keyset tail falls into (kafka-connect-jdbc #27, #172, #915, #1015), with two real
 * PostgreSQL transactions: the one that took the lower key commits after a tick has read the higher
 * key, so its row sorts behind the checkpoint. Without {@code settle_secs} the row is never read;
 * with it, a tick reads only keys older than the database's clock less the settle, and the late row
 * is read in order once it has settled.
 */
class LateCommitTest {

  private TestDatabase database;

  @BeforeEach
  void createTable() {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE events (at timestamptz NOT NULL, id integer NOT NULL, PRIMARY KEY (at, id))");
  }

  @AfterEach
  void drop() {
    database.close();
  }

  @Test
  void withoutSettleTheRowOfTheTransactionThatCommitsLateIsNeverRead() throws Exception {
    DbStore store =
        TestDatabase.tail("events", "SELECT id, at FROM events", List.of("at", "id"), 100, 10);
    List<String> read = new ArrayList<>();
    try (OpenConnection open = database.open(store);
        Connection early = transaction();
        Connection late = transaction()) {
      insert(early, 1);
      insert(late, 2);
      late.commit();

      Optional<Mark> checkpoint = tick(open, Optional.empty(), read);
      early.commit();
      checkpoint = tick(open, checkpoint, read);
      tick(open, checkpoint, read);
    }

    assertThat(count()).isEqualTo(2);
    assertThat(ids(read)).as("row 1 committed behind the checkpoint: lost").containsExactly(2);
  }

  @Test
  void withSettleOnATimeKeyTheLateRowIsReadOnceItSettled() throws Exception {
    DbStore store =
        TestDatabase.settledTail("events", "SELECT id, at FROM events", List.of("at", "id"), 1);
    List<String> read = new ArrayList<>();
    try (OpenConnection open = database.open(store);
        Connection early = transaction();
        Connection late = transaction()) {
      insert(early, 1);
      insert(late, 2);
      late.commit();

      Optional<Mark> checkpoint = tick(open, Optional.empty(), read);
      early.commit();
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(this::everyRowHasSettled);
      checkpoint = tick(open, checkpoint, read);
      tick(open, checkpoint, read);
    }

    assertThat(ids(read)).containsExactly(1, 2);
  }

  private Connection transaction() throws Exception {
    Connection connection = database.connect();
    connection.setAutoCommit(false);
    return connection;
  }

  /** A row stamped with the database's clock at the moment of the insert, not at commit. */
  private static void insert(Connection transaction, int id) throws Exception {
    try (Statement statement = transaction.createStatement()) {
      statement.execute("INSERT INTO events VALUES (clock_timestamp(), " + id + ")");
    }
  }

  private static Optional<Mark> tick(
      OpenConnection open, Optional<Mark> checkpoint, List<String> read) throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source("events").read(checkpoint, sink, new Cancellation());
    read.addAll(sink.records());
    return sink.lastMark().isPresent() ? sink.lastMark() : checkpoint;
  }

  private boolean everyRowHasSettled() throws Exception {
    return queryLong(
            "SELECT CASE WHEN now() - interval '1 second' > max(at) THEN 1 ELSE 0 END"
                + " FROM events")
        == 1;
  }

  private long count() throws Exception {
    return queryLong("SELECT count(*) FROM events");
  }

  private long queryLong(String sql) throws Exception {
    try (Connection connection = database.connect();
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static List<Integer> ids(List<String> records) {
    return records.stream()
        .map(record -> record.replaceAll("^\\{\"id\":(\\d+),.*$", "$1"))
        .map(Integer::parseInt)
        .toList();
  }
}
