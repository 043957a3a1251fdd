package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.RecordingSink.Begin;
import dfe.fetcher.jdbc.RecordingSink.End;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A dump store against the real servers: one snapshot per read, and no end unless complete. */
class DumpStoreTest {

  private TestDatabase database;

  private TestDatabase create(Engine engine) {
    database = TestDatabase.create(engine);
    return database;
  }

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2", "SQLITE"})
  void anEmptyTableLandsAsBeginAndEnd(Engine engine) throws Exception {
    create(engine).execute("CREATE TABLE empty_table (id INTEGER PRIMARY KEY)");

    RecordingSink sink =
        Dumps.read(database, TestDatabase.dump("empty", "SELECT * FROM empty_table"));

    assertThat(sink.events)
        .containsExactly(new Begin(OptionalLong.empty()), new End(Optional.empty()));
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2"})
  void countFirstPutsTheRowCountInTheBegin(Engine engine) throws Exception {
    create(engine)
        .execute(
            "CREATE TABLE counted (id INTEGER PRIMARY KEY)",
            "INSERT INTO counted VALUES (1), (2), (3)");

    RecordingSink sink =
        Dumps.read(database, TestDatabase.countedDump("counted", "SELECT * FROM counted"));

    assertThat(sink.events).first().isEqualTo(new Begin(OptionalLong.of(3)));
    assertThat(sink.records()).hasSize(3);
    assertThat(sink.events).last().isEqualTo(new End(Optional.empty()));
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2", "SQLITE"})
  void aMixedCaseTableWithASpaceAndAColumnNamedSelectAreRead(Engine engine) throws Exception {
    Dialect dialect = Dialect.ofUrl(create(engine).url());
    String table = dialect.quote("Order Lines");
    String select = dialect.quote("select");
    database.execute(
        "CREATE TABLE " + table + " (" + dialect.quote("Id") + " INTEGER, " + select + " INTEGER)",
        "INSERT INTO " + table + " VALUES (1, 10)");

    assertThat(Dumps.records(database, TestDatabase.dump("lines", "SELECT * FROM " + table)))
        .containsExactly("{\"Id\":1,\"select\":10}");
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void twoColumnsOfOneLabelFailNamingTheLabel(Engine engine) throws Exception {
    create(engine)
        .execute(
            "CREATE TABLE a (id INTEGER, note VARCHAR(10))",
            "CREATE TABLE b (id INTEGER, a_id INTEGER)",
            "INSERT INTO a VALUES (1, 'x')",
            "INSERT INTO b VALUES (7, 1)");
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open =
        database.open(
            TestDatabase.dump("joined", "SELECT a.id, b.id FROM a JOIN b ON b.a_id = a.id"))) {
      assertThatThrownBy(
              () -> open.source("joined").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("warehouse.joined")
          .hasMessageContaining("two columns labelled \"id\"");
    }
    assertThat(sink.events).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aConnectionKilledMidDumpFailsNamingTheStoreAndTheSqlStateAndTheNextReadIsComplete(
      Engine engine) throws Exception {
    create(engine);
    fill(engine, 200_000);
    DbStore store = TestDatabase.dump("big", "SELECT * FROM big");
    RecordingSink sink = new RecordingSink(row -> killOnRow10(engine, row));

    try (OpenConnection open = database.open(store)) {
      assertThatThrownBy(() -> open.source("big").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("warehouse.big")
          .hasMessageMatching("(?s).*SQL state [0-9A-Z]{5}.*");
      assertThat(sink.events).first().isEqualTo(new Begin(OptionalLong.empty()));
      assertThat(sink.events).noneMatch(End.class::isInstance);
      assertThat(sink.records()).hasSizeBetween(10, 199_999);

      RecordingSink next = new RecordingSink();
      open.source("big").read(Optional.empty(), next, new Cancellation());
      assertThat(next.records()).hasSize(200_000);
      assertThat(next.events).last().isEqualTo(new End(Optional.empty()));
    }
  }

  /**
   * A query that fails at its 150,000th row: a driver that fetched the whole result before
   * returning it would fail before the sink saw any row; a streaming one hands the rows over first.
   */
  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "H2"})
  void theRowsStreamToTheSinkBeforeTheQueryHasFinished(Engine engine) throws Exception {
    create(engine);
    String query =
        engine == Engine.POSTGRES
            ? "SELECT i, 1 / (i - 150000) AS q FROM generate_series(1, 200000) AS s(i)"
            : "SELECT X AS i, 1 / (X - 150000) AS q FROM SYSTEM_RANGE(1, 200000)";
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open = database.open(TestDatabase.dump("stream", query))) {
      assertThatThrownBy(
              () -> open.source("stream").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("SQL state 22012");
    }
    assertThat(sink.records()).hasSizeGreaterThanOrEqualTo(100_000).hasSizeLessThan(150_000);
    assertThat(sink.events).noneMatch(End.class::isInstance);
  }

  private void fill(Engine engine, int rows) {
    if (engine == Engine.POSTGRES) {
      database.execute(
          "CREATE TABLE big (id INTEGER PRIMARY KEY, note TEXT)",
          "INSERT INTO big SELECT i, repeat('x', 40) FROM generate_series(1, " + rows + ") i");
    } else {
      database.execute(
          "CREATE TABLE big (id INTEGER PRIMARY KEY, note TEXT)",
          "INSERT INTO big SELECT seq, REPEAT('x', 40) FROM seq_1_to_" + rows);
    }
  }

  /** On the 10th row, kills the dump's connection from another one and waits until it is gone. */
  private void killOnRow10(Engine engine, int row) {
    if (row != 10) {
      return;
    }
    try (Connection admin = database.connect()) {
      String find =
          engine == Engine.POSTGRES
              ? "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                  + " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
              : "SELECT id FROM information_schema.processlist WHERE db = DATABASE()"
                  + " AND id <> CONNECTION_ID() AND command <> 'Daemon'";
      long id = single(admin, find);
      if (engine == Engine.POSTGRES) {
        single(admin, "SELECT CASE WHEN pg_terminate_backend(" + id + ") THEN 1 ELSE 0 END");
      } else {
        try (PreparedStatement kill = admin.prepareStatement("KILL CONNECTION " + id)) {
          kill.execute();
        }
      }
      String gone =
          engine == Engine.POSTGRES
              ? "SELECT count(*) FROM pg_stat_activity WHERE pid = " + id
              : "SELECT count(*) FROM information_schema.processlist WHERE id = " + id;
      await().atMost(Duration.ofSeconds(10)).until(() -> single(admin, gone) == 0);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot kill the dump's connection", e);
    }
  }

  private static long single(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      if (!rows.next()) {
        throw new IllegalStateException("no row for " + sql);
      }
      return rows.getLong(1);
    }
  }
}
