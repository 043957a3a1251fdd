package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A keyset tail against real databases: every row once, in key order, across ticks and restarts.
 */
class KeysetTailTest {

  private static final Pattern ID = Pattern.compile("(?i)\"id\":(\\d+)");
  private static final Pattern GROUP_AND_SEQ = Pattern.compile("(?i)\"grp\":(\\d+),\"seq\":(\\d+)");

  private TestDatabase database;

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2"})
  void aTickReadsAtMostItsPagesAndTheNextTickResumesAfterTheCheckpoint(Engine engine)
      throws Exception {
    database = TestDatabase.create(engine);
    database.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, note VARCHAR(20))");
    insert(1, 25);
    DbStore store = TestDatabase.tail("events", "SELECT * FROM events", List.of("id"), 10, 2);

    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, Optional.empty());
      assertThat(ids(first)).isEqualTo(range(1, 20));
      assertThat(RecordingSink.keyset(first.lastMark()))
          .isEqualTo(KeysetMark.of(new KeysetMark.IntegerValue(20)));

      RecordingSink second = read(open, first.lastMark());
      assertThat(ids(second)).isEqualTo(range(21, 25));

      insert(26, 30);
      RecordingSink third = read(open, second.lastMark());
      assertThat(ids(third)).isEqualTo(range(26, 30));

      RecordingSink idle = read(open, third.lastMark());
      assertThat(idle.events).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2"})
  void aNewSourceGivenTheLastCheckpointReadsOnlyWhatCameAfter(Engine engine) throws Exception {
    database = TestDatabase.create(engine);
    database.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, note VARCHAR(20))");
    insert(1, 7);
    DbStore store = TestDatabase.tail("events", "SELECT * FROM events", List.of("id"), 5, 10);
    Optional<Mark> checkpoint;
    try (OpenConnection before = database.open(store)) {
      RecordingSink sink = read(before, Optional.empty());
      assertThat(ids(sink)).isEqualTo(range(1, 7));
      checkpoint = sink.lastMark();
    }
    insert(8, 9);

    try (OpenConnection restarted = database.open(store)) {
      assertThat(ids(read(restarted, checkpoint))).isEqualTo(range(8, 9));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2"})
  void aCompositeKeyPagesAcrossGroupsWithNothingSkippedAndNothingTwice(Engine engine)
      throws Exception {
    database = TestDatabase.create(engine);
    assertCompositeKeyTail(Dialect.ofUrl(database.url()));
  }

  /** H2 under the generic dialect: no row values, so the comparison is written out in full. */
  @Test
  void theExpandedComparisonPagesACompositeKeyLikeRowValues() throws Exception {
    database = TestDatabase.create(Engine.H2);
    assertCompositeKeyTail(Dialect.GENERIC);
  }

  private void assertCompositeKeyTail(Dialect dialect) throws Exception {
    database.execute(
        "CREATE TABLE moves (grp INTEGER NOT NULL, seq INTEGER NOT NULL, note VARCHAR(20),"
            + " PRIMARY KEY (grp, seq))",
        "INSERT INTO moves VALUES (1, 1, 'a'), (1, 2, 'b'), (1, 3, 'c'), (1, 4, 'd'),"
            + " (2, 1, 'e'), (2, 2, 'f'), (3, 1, 'g')");
    DbStore store =
        TestDatabase.tail("moves", "SELECT grp, seq, note FROM moves", List.of("grp", "seq"), 3, 1);
    List<String> seen = new ArrayList<>();
    try (OpenConnection open = database.open(dialect, store)) {
      Optional<Mark> checkpoint = Optional.empty();
      for (int tick = 0; tick < 3; tick++) {
        RecordingSink sink = read(open, "moves", checkpoint);
        seen.addAll(pairs(sink));
        checkpoint = sink.lastMark();
      }
      database.execute("INSERT INTO moves VALUES (3, 2, 'h'), (4, 1, 'i')");
      RecordingSink later = read(open, "moves", checkpoint);
      assertThat(pairs(later)).containsExactly("3/2", "4/1");
      assertThat(seen).containsExactly("1/1", "1/2", "1/3", "1/4", "2/1", "2/2", "3/1");
    }
  }

  @Test
  void aTailOnAPostgresqlUuidKeyPagesPastItsFirstPage() throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE things (id uuid PRIMARY KEY, n integer)",
        "INSERT INTO things SELECT ('00000000-0000-0000-0000-00000000000' || g)::uuid, g"
            + " FROM generate_series(1, 5) g");
    DbStore store = TestDatabase.tail("things", "SELECT * FROM things", List.of("id"), 2, 10);

    try (OpenConnection open = database.open(store)) {
      RecordingSink sink = read(open, "things", Optional.empty());

      assertThat(sink.records())
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("1", "2", "3", "4", "5");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Asia/Kolkata", "America/New_York"})
  void aMariadbTailOnATimestampKeyReadsEveryRowOnceWhateverTheJvmsZone(String zone)
      throws Exception {
    database = TestDatabase.create(Engine.MARIADB);
    database.execute("CREATE TABLE stamps (at TIMESTAMP(6) NOT NULL PRIMARY KEY, n INT)");
    for (int n = 1; n <= 8; n++) {
      database.execute(
          "INSERT INTO stamps VALUES (TIMESTAMP '2024-03-10 0" + n + ":30:00.000001', " + n + ")");
    }
    DbStore store = TestDatabase.tail("stamps", "SELECT * FROM stamps", List.of("at"), 2, 20);
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, "stamps", Optional.empty());
      RecordingSink again = read(open, "stamps", first.lastMark());

      assertThat(first.records())
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
      assertThat(again.records()).isEmpty();
    } finally {
      TimeZone.setDefault(before);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Asia/Kolkata", "America/New_York"})
  void settleHoldsBackAPostgresqlTimestampKeyYoungerThanItWhateverTheJvmsZone(String zone)
      throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE events (at timestamp(6) NOT NULL PRIMARY KEY, n integer)",
        // Written as UTC wall time, the store's zone when it names none.
        "INSERT INTO events VALUES ((now() AT TIME ZONE 'UTC') - interval '2 hours', 1),"
            + " ((now() AT TIME ZONE 'UTC') - interval '1 second', 2)");
    DbStore store = TestDatabase.settledTail("events", "SELECT * FROM events", List.of("at"), 600);
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    try (OpenConnection open = database.open(store)) {
      RecordingSink sink = read(open, "events", Optional.empty());

      assertThat(sink.records())
          .as("the row written a second ago is within settle_secs")
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("1");
    } finally {
      TimeZone.setDefault(before);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB", "H2"})
  void aNullKeyFailsTheTickAlsoOnceACheckpointExists(Engine engine) throws Exception {
    database = TestDatabase.create(engine);
    database.execute(
        "CREATE TABLE events (id INTEGER UNIQUE, note VARCHAR(20))",
        "INSERT INTO events VALUES (1, 'a'), (2, 'b')");
    DbStore store = TestDatabase.tail("events", "SELECT * FROM events", List.of("id"), 10, 2);

    assertTheTickAfterFailsOnANullKey(
        store, List.of(1, 2), "INSERT INTO events VALUES (NULL, 'lost?'), (3, 'c')");
  }

  @Test
  void aNullKeyThroughAnOuterJoinFailsTheTickThoughTheDriverSaysTheColumnIsNotNull()
      throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE hosts (id INTEGER PRIMARY KEY)",
        "CREATE TABLE seen (host INTEGER PRIMARY KEY, id INTEGER NOT NULL UNIQUE)",
        "INSERT INTO hosts VALUES (1), (2)",
        "INSERT INTO seen VALUES (1, 10), (2, 20)");
    DbStore store =
        TestDatabase.tail(
            "events",
            "SELECT s.id, h.id AS host FROM hosts h LEFT JOIN seen s ON s.host = h.id",
            List.of("id"),
            10,
            2);

    assertTheTickAfterFailsOnANullKey(store, List.of(10, 20), "INSERT INTO hosts VALUES (3)");
  }

  /**
   * A first tick of {@code store} reads {@code firstIds}; after {@code insert} the tick from its
   * checkpoint fails on a NULL key.
   */
  private void assertTheTickAfterFailsOnANullKey(
      DbStore store, List<Integer> firstIds, String insert) throws Exception {
    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, Optional.empty());
      assertThat(ids(first)).isEqualTo(firstIds);
      database.execute(insert);

      assertThatThrownBy(() -> read(open, first.lastMark()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("warehouse.events: a row's key (id) is NULL");
    }
  }

  @Test
  void aKeyThatNoUniqueIndexCoversIsRefusedWhereTheDatabaseCanTell() throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE events (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL)",
        "CREATE UNIQUE INDEX events_grp_some ON events (grp) WHERE id < 0",
        "INSERT INTO events VALUES (1, 7), (2, 7), (3, 7)");
    DbStore byGroup =
        TestDatabase.tail("events", "SELECT id, grp FROM events", List.of("grp"), 2, 2);
    DbStore byGroupAndId =
        TestDatabase.tail("events", "SELECT id, grp FROM events", List.of("grp", "id"), 2, 2);

    try (OpenConnection open = database.open(byGroup)) {
      assertThatThrownBy(() -> read(open, Optional.empty()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining(
              "warehouse.events: the tail key (grp) is not unique in public.events: no primary"
                  + " key or unique index lies within it");
    }
    try (OpenConnection open = database.open(byGroupAndId)) {
      assertThat(ids(read(open, Optional.empty()))).containsExactly(1, 2, 3);
    }
  }

  @Test
  void onMariadbTheQueryItselfSaysWhetherTheKeyIsUniqueSoAPrimaryKeyIsNotWarnedAbout()
      throws Exception {
    database = TestDatabase.create(Engine.MARIADB);
    database.execute(
        "CREATE TABLE events (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL)",
        "INSERT INTO events VALUES (1, 7), (2, 7), (3, 7)");
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger("dfe.fetcher.source.db");
    logs.start();
    logger.addAppender(logs);
    try {
      DbStore byId =
          TestDatabase.tail("events", "SELECT e.id, e.grp FROM events e", List.of("id"), 2, 2);
      try (OpenConnection open = database.open(byId)) {
        assertThat(ids(read(open, Optional.empty()))).containsExactly(1, 2, 3);
      }
      DbStore byGroup =
          TestDatabase.tail("events", "SELECT id, grp FROM events", List.of("grp"), 2, 2);
      try (OpenConnection open = database.open(byGroup)) {
        assertThatThrownBy(() -> read(open, Optional.empty()))
            .isInstanceOf(SourceException.class)
            .hasMessageContaining("warehouse.events: the tail key (grp) is not unique in ")
            .hasMessageContaining(".events: no primary key or unique index lies within it");
      }
    } finally {
      logger.detachAppender(logs);
    }
    assertThat(logs.list).isEmpty();
  }

  @Test
  void aUniqueIndexWithinTheKeyMakesItUnique() throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE events (id INTEGER, code TEXT NOT NULL, grp INTEGER NOT NULL)",
        "CREATE UNIQUE INDEX events_code ON events (code)",
        "INSERT INTO events VALUES (1, 'a', 7), (2, 'b', 7), (3, 'c', 7)");
    DbStore store =
        TestDatabase.tail(
            "events", "SELECT id, code, grp FROM events", List.of("grp", "code"), 2, 2);

    try (OpenConnection open = database.open(store)) {
      assertThat(ids(read(open, Optional.empty()))).containsExactly(1, 2, 3);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aKeyWhoseUniquenessTheDatabaseCannotTellIsWarnedAboutOncePerStore(Engine engine)
      throws Exception {
    database = TestDatabase.create(engine);
    database.execute(
        "CREATE TABLE events (id INTEGER PRIMARY KEY, note VARCHAR(20))",
        "CREATE TABLE notes (id INTEGER PRIMARY KEY)",
        "INSERT INTO events VALUES (1, 'a'), (2, 'b')",
        "INSERT INTO notes VALUES (1), (2)");
    DbStore store =
        TestDatabase.tail(
            "events",
            "SELECT e.id, e.note, n.id AS note_id FROM events e JOIN notes n ON n.id = e.id",
            List.of("id"),
            10,
            2);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger("dfe.fetcher.source.db");
    logs.start();
    logger.addAppender(logs);
    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, Optional.empty());
      read(open, first.lastMark());
      assertThat(ids(first)).containsExactly(1, 2);
    } finally {
      logger.detachAppender(logs);
    }

    assertThat(logs.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getFormattedMessage())
                  .startsWith("event=key_unchecked store=warehouse.events key=id");
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "inet|'10.0.0.1','10.0.0.2','10.0.0.3','10.0.0.4','10.0.0.5'",
        "mood|'sad','ok','fine','good','great'",
        "time|'01:00','02:00','03:00','04:00','05:00'",
        "double precision|0.5,1.5,2.5,3.5,4.5",
        "text|'a','b','c','d','e'",
        "date|'2024-01-01','2024-01-02','2024-01-03','2024-01-04','2024-01-05'",
        "numeric|1.10,2.20,3.30,4.40,5.50",
        "bytea|'\\x01','\\x02','\\x03','\\x04','\\x05'"
      })
  void aPostgresqlTailPagesOverEachKeyTypeTheMappingReads(String typeAndValues) throws Exception {
    String type = typeAndValues.substring(0, typeAndValues.indexOf('|'));
    String[] values = typeAndValues.substring(typeAndValues.indexOf('|') + 1).split(",");
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TYPE mood AS ENUM ('sad', 'ok', 'fine', 'good', 'great')",
        "CREATE TABLE keyed (k " + type + " PRIMARY KEY, n integer)");
    for (int i = 0; i < values.length; i++) {
      database.execute("INSERT INTO keyed VALUES (" + values[i] + ", " + (i + 1) + ")");
    }
    DbStore store = TestDatabase.tail("keyed", "SELECT * FROM keyed", List.of("k"), 2, 10);

    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, "keyed", Optional.empty());
      RecordingSink again = read(open, "keyed", first.lastMark());

      assertThat(first.records())
          .as(type + " keys, two a page")
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("1", "2", "3", "4", "5");
      assertThat(again.records()).isEmpty();
    }
  }

  @Test
  void settleHoldsBackASqliteTextStampYoungerThanIt() throws Exception {
    database = TestDatabase.create(Engine.SQLITE);
    database.execute(
        "CREATE TABLE events (at TEXT NOT NULL PRIMARY KEY, n INTEGER)",
        "INSERT INTO events VALUES (datetime('now', '-2 hours'), 1), (datetime('now'), 2)");
    DbStore store = TestDatabase.settledTail("events", "SELECT * FROM events", List.of("at"), 600);

    try (OpenConnection open = database.open(store)) {
      RecordingSink sink = read(open, "events", Optional.empty());

      assertThat(sink.records())
          .as("the row stamped now is within settle_secs")
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("1");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "varchar(10)|'a','b','c','d','e'",
        "date|'2024-01-01','2024-01-02','2024-01-03','2024-01-04','2024-01-05'",
        "datetime(6)|'2024-01-01 00:00:00.000001','2024-01-01 00:00:00.000002',"
            + "'2024-01-01 00:00:01','2024-06-01 00:00:00','2025-01-01 00:00:00'",
        "time|'-01:00:00','00:30:00','23:00:00','25:30:00','100:00:00'",
        "decimal(10,2)|1.10,2.20,3.30,4.40,5.50",
        "double|0.5,1.5,2.5,3.5,4.5",
        "bigint unsigned|1,9007199254740993,9223372036854775807,9223372036854775808,"
            + "18446744073709551615",
        "varbinary(4)|x'01',x'02',x'03',x'04',x'05'",
        "year|2020,2021,2022,2023,2024"
      })
  void aMariadbTailPagesOverEachKeyTypeTheMappingReads(String typeAndValues) throws Exception {
    tailOverKeyType(Engine.MARIADB, typeAndValues);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "varchar(10)|'a','b','c','d','e'",
        "uuid|'00000000-0000-0000-0000-000000000001','00000000-0000-0000-0000-000000000002',"
            + "'00000000-0000-0000-0000-000000000003','00000000-0000-0000-0000-000000000004',"
            + "'00000000-0000-0000-0000-000000000005'",
        "timestamp with time zone|TIMESTAMP WITH TIME ZONE '2024-01-01 00:00:00+05:30',"
            + "TIMESTAMP WITH TIME ZONE '2024-01-01 00:00:00+00:00',"
            + "TIMESTAMP WITH TIME ZONE '2024-01-01 00:00:00-05:00',"
            + "TIMESTAMP WITH TIME ZONE '2024-01-01 12:00:00-05:00',"
            + "TIMESTAMP WITH TIME ZONE '2024-01-02 00:00:00+00:00'",
        "time|'01:00','02:00','03:00','04:00','05:00'",
        "decimal(10,2)|1.10,2.20,3.30,4.40,5.50",
        "varbinary(4)|X'01',X'02',X'03',X'04',X'05'"
      })
  void anH2TailPagesOverEachKeyTypeTheMappingReads(String typeAndValues) throws Exception {
    tailOverKeyType(Engine.H2, typeAndValues);
  }

  @Test
  void aMariadbEnumKeyWhoseOrderAndComparisonDisagreeFailsTheTickInsteadOfSkippingRows()
      throws Exception {
    database = TestDatabase.create(Engine.MARIADB);
    database.execute(
        "CREATE TABLE keyed (k ENUM('sad','ok','fine','good','great') PRIMARY KEY, n integer)",
        "INSERT INTO keyed VALUES ('sad', 1), ('ok', 2), ('fine', 3), ('good', 4), ('great', 5)");
    DbStore asEnum = TestDatabase.tail("keyed", "SELECT * FROM keyed", List.of("k"), 2, 10);
    DbStore asText =
        TestDatabase.tail(
            "keyed", "SELECT CAST(k AS CHAR) AS k, n FROM keyed", List.of("k"), 2, 10);

    try (OpenConnection open = database.open(asEnum)) {
      assertThatThrownBy(() -> read(open, "keyed", Optional.empty()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining(
              "warehouse.keyed: a page returned the key (sad) that the page before it held")
          .hasMessageContaining("CAST(k AS CHAR) AS k");
    }
    try (OpenConnection open = database.open(asText)) {
      assertThat(read(open, "keyed", Optional.empty()).records())
          .extracting(record -> record.replaceAll(".*\"n\":(\\d+).*", "$1"))
          .containsExactly("3", "4", "5", "2", "1");
    }
  }

  @Test
  void aMariadbZeroDateKeyFailsTheTickRatherThanBeingPassedOver() throws Exception {
    database = TestDatabase.create(Engine.MARIADB);
    database.execute(
        "SET SESSION sql_mode = ''",
        "CREATE TABLE stamped (at DATETIME PRIMARY KEY, n integer)",
        "INSERT INTO stamped VALUES ('2024-01-01 00:00:00', 1), ('2024-01-02 00:00:00', 2)");
    DbStore store = TestDatabase.tail("stamped", "SELECT * FROM stamped", List.of("at"), 10, 2);

    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, "stamped", Optional.empty());
      assertThat(first.records()).hasSize(2);
      database.execute(
          "SET SESSION sql_mode = ''", "INSERT INTO stamped VALUES ('0000-00-00 00:00:00', 3)");

      assertThatThrownBy(() -> read(open, "stamped", first.lastMark()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("warehouse.stamped: a row's key (at) is NULL");
    }
  }

  @Test
  void aPostgresqlInfiniteTimestampKeyFailsTheTickNamingTheColumn() throws Exception {
    database = TestDatabase.create(Engine.POSTGRES);
    database.execute(
        "CREATE TABLE stamped (at timestamptz PRIMARY KEY, n integer)",
        "INSERT INTO stamped VALUES ('2024-01-01 00:00:00Z', 1), ('infinity', 2)");
    DbStore store = TestDatabase.tail("stamped", "SELECT * FROM stamped", List.of("at"), 10, 2);

    try (OpenConnection open = database.open(store)) {
      RecordingSink sink = new RecordingSink();
      assertThatThrownBy(
              () -> open.source("stamped").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("warehouse.stamped")
          .hasMessageContaining("key column \"at\" is infinite in a row");
      assertThat(sink.records())
          .containsExactly("{\"at\":\"2024-01-01T00:00:00.000000Z\",\"n\":1}");
    }
  }

  /** Five rows keyed by values of one type, in key order, read two a page: each once. */
  private void tailOverKeyType(Engine engine, String typeAndValues) throws Exception {
    String type = typeAndValues.substring(0, typeAndValues.indexOf('|'));
    List<String> values =
        List.of(typeAndValues.substring(typeAndValues.indexOf('|') + 1).split(","));
    database = TestDatabase.create(engine);
    database.execute("CREATE TABLE keyed (k " + type + " PRIMARY KEY, n integer)");
    for (int i = 0; i < values.size(); i++) {
      database.execute("INSERT INTO keyed VALUES (" + values.get(i) + ", " + (i + 1) + ")");
    }
    DbStore store = TestDatabase.tail("keyed", "SELECT * FROM keyed", List.of("k"), 2, 10);

    try (OpenConnection open = database.open(store)) {
      RecordingSink first = read(open, "keyed", Optional.empty());
      RecordingSink again = read(open, "keyed", first.lastMark());

      assertThat(first.records())
          .as(type + " keys, two a page")
          .extracting(record -> record.replaceAll("(?i).*\"n\":(\\d+).*", "$1"))
          .containsExactly("1", "2", "3", "4", "5");
      assertThat(again.records()).isEmpty();
    }
  }

  private void insert(int from, int to) {
    database.execute(
        IntStream.rangeClosed(from, to)
            .mapToObj(i -> "INSERT INTO events VALUES (" + i + ", 'n" + i + "')")
            .toArray(String[]::new));
  }

  private static RecordingSink read(OpenConnection open, Optional<Mark> checkpoint)
      throws Exception {
    return read(open, "events", checkpoint);
  }

  private static RecordingSink read(OpenConnection open, String unit, Optional<Mark> checkpoint)
      throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source(unit).read(checkpoint, sink, new Cancellation());
    return sink;
  }

  private static List<Integer> ids(RecordingSink sink) {
    List<Integer> ids = new ArrayList<>();
    for (String record : sink.records()) {
      Matcher matcher = ID.matcher(record);
      assertThat(matcher.find()).as("an id in %s", record).isTrue();
      ids.add(Integer.parseInt(matcher.group(1)));
    }
    return ids;
  }

  private static List<String> pairs(RecordingSink sink) {
    List<String> pairs = new ArrayList<>();
    for (String record : sink.records()) {
      Matcher matcher = GROUP_AND_SEQ.matcher(record);
      assertThat(matcher.find()).as("grp and seq in %s", record).isTrue();
      pairs.add(matcher.group(1) + "/" + matcher.group(2));
    }
    return pairs;
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.rangeClosed(from, to).boxed().toList();
  }
}
