package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keyset tail stores against the real ClickHouse server, each under a JVM zone east of UTC and one
 * west of it: no key bind or cutoff may depend on the JVM's zone.
 */
@Timeout(120)
class ClickHouseTailTest {

  private static final String DATABASE = "dfe_tail";
  private static final List<String> ZONES = List.of("Asia/Kolkata", "America/Los_Angeles");

  @BeforeAll
  static void server() throws Exception {
    ClickHouseFixture.ensureServer();
    ClickHouseFixture.freshDatabase(DATABASE);
  }

  private static ClickHouseConnection connection(String store) {
    return ClickHouseFixture.connection(
        "wh",
        "engine: clickhouse\nurl: "
            + ClickHouseFixture.URL
            + "\ndatabase: "
            + DATABASE
            + "\nstores:\n  - "
            + store
            + "\n");
  }

  @Test
  void insertsBetweenTicksAreReadOnceAndARestartResumesFromTheCheckpoint() throws Exception {
    for (String zone : ZONES) {
      inZone(
          zone,
          () -> {
            String table = "events_" + zone.replace('/', '_').toLowerCase();
            ClickHouseFixture.exec(
                "CREATE TABLE "
                    + DATABASE
                    + "."
                    + table
                    + " (id UInt64, at DateTime('Asia/Kolkata'), v String) ENGINE = MergeTree"
                    + " ORDER BY id");
            insert(table, 1, 5);
            ClickHouseConnection connection =
                connection(
                    "{unit: events, shape: tail, query: \"SELECT * FROM "
                        + table
                        + "\", key: [id], limit: 2}");
            EventSink first = ClickHouseFixture.read(connection, "events", Optional.empty());
            assertThat(ids(first)).containsExactly(1L, 2L, 3L, 4L, 5L);
            assertThat(first.events).isEmpty();
            insert(table, 6, 8);
            EventSink second = ClickHouseFixture.read(connection, "events", first.lastMark());
            assertThat(ids(second)).containsExactly(6L, 7L, 8L);
            // A restart: a connection opened afresh, from the committed checkpoint.
            Optional<Mark> checkpoint = Optional.of(KeysetMark.of(new KeysetMark.IntegerValue(8)));
            assertThat(second.lastMark()).isEqualTo(checkpoint);
            EventSink idle =
                ClickHouseFixture.read(
                    connection(
                        "{unit: events, shape: tail, query: \"SELECT * FROM "
                            + table
                            + "\", key: [id], limit: 2}"),
                    "events",
                    checkpoint);
            assertThat(idle.records).isEmpty();
            insert(table, 9, 9);
            EventSink third = ClickHouseFixture.read(connection, "events", checkpoint);
            assertThat(ids(third)).containsExactly(9L);
            assertThat(third.records.get(0))
                .isEqualTo("{\"id\":9,\"at\":\"2024-03-10T02:30:09Z\",\"v\":\"row 9\"}");
          });
    }
  }

  @Test
  void maxPagesPerTickLeavesTheRestForTheNextTick() throws Exception {
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".paged (id UInt64, at DateTime, v String) ENGINE = MergeTree"
            + " ORDER BY id");
    insert("paged", 1, 7);
    ClickHouseConnection connection =
        connection(
            "{unit: paged, shape: tail, query: \"SELECT * FROM paged\", key: [id], limit: 2,"
                + " max_pages_per_tick: 2}");
    EventSink first = ClickHouseFixture.read(connection, "paged", Optional.empty());
    assertThat(ids(first)).containsExactly(1L, 2L, 3L, 4L);
    EventSink second = ClickHouseFixture.read(connection, "paged", first.lastMark());
    assertThat(ids(second)).containsExactly(5L, 6L, 7L);
  }

  @Test
  void aCompositeKeyWithSettleReadsOnlyRowsOlderThanTheServersNowLessTheSettle() throws Exception {
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".settled (at DateTime('America/Los_Angeles'), id UInt32) ENGINE = MergeTree"
            + " ORDER BY (at, id)");
    // Two rows an hour old with equal stamps, and two stamped ten minutes ahead of the server.
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + ".settled SELECT now() - 3600, number FROM numbers(2)"
            + " UNION ALL SELECT now() + 600, number + 2 FROM numbers(2)");
    for (String zone : ZONES) {
      inZone(
          zone,
          () -> {
            ClickHouseConnection connection =
                connection(
                    "{unit: settled, shape: tail, query: \"SELECT * FROM settled\","
                        + " key: [at, id], limit: 1, settle_secs: 60}");
            EventSink sink = ClickHouseFixture.read(connection, "settled", Optional.empty());
            assertThat(sink.records).hasSize(2);
            assertThat(sink.records.get(0)).contains("\"id\":0");
            assertThat(sink.records.get(1)).contains("\"id\":1");
            KeysetMark last = (KeysetMark) sink.lastMark().orElseThrow();
            assertThat(last.values().get(0)).isInstanceOf(KeysetMark.TimestampValue.class);
            EventSink again = ClickHouseFixture.read(connection, "settled", sink.lastMark());
            assertThat(again.records).isEmpty();
          });
    }
  }

  /**
   * Each key type as a tail over five rows read two a page: every row once, in key order; the
   * string keys include a quote, a backslash, a newline and bytes that are not UTF-8, so a literal
   * that is spliced rather than rendered would fail or read wrong rows.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "String|['a', 'it''s', 'back\\\\slash', 'new\\nline', unhex('FF01')]",
        "FixedString(3)|['a', 'b''', unhex('00FF'), 'zz', 'zzz']",
        "UInt64|['0', '9223372036854775807', '9223372036854775808', '18446744073709551614',"
            + " '18446744073709551615']",
        "Int64|['-9223372036854775808', '-1', '0', '9007199254740993', '9223372036854775807']",
        "Decimal(38, 10)|[-1.5, 0, 0.0000000001, 12345678901234567890.1234567890, 99]",
        "Float64|[-1e100, -0.5, 0.1, 1e-7, 3.5]",
        "Date|['1970-01-02', '2000-02-29', '2024-02-29', '2024-03-10', '2100-12-31']",
        "DateTime('Asia/Kolkata')|[100000000, 1710037800, 1710037801, 1730622600, 2000000000]",
        "UUID|['00000000-0000-0000-0000-000000000001', '0190f8a0-1d2e-7c3b-8a4f-123456789abc',"
            + " '5a000000-0000-0000-0000-000000000000', 'f5323a56-f4b3-4d8f-87ce-abdc769dae9f',"
            + " 'ffffffff-ffff-ffff-ffff-ffffffffffff']",
        "Enum8('z' = -5, 'y' = 0, 'x' = 1, 'w' = 2, 'v' = 100)|['z', 'y', 'x', 'w', 'v']",
        "LowCardinality(String)|['a', 'b', 'c', 'd', 'e']",
      })
  void eachKeyTypeIsBoundAsATypedLiteral(String spec) throws Exception {
    String type = spec.substring(0, spec.indexOf('|'));
    String values = spec.substring(spec.indexOf('|') + 1);
    String table = "key_" + Integer.toHexString(type.hashCode());
    ClickHouseFixture.exec("DROP TABLE IF EXISTS " + DATABASE + "." + table);
    ClickHouseFixture.exec(
        "CREATE TABLE " + DATABASE + "." + table + " (k " + type + ", n UInt8) ENGINE = Memory",
        Map.of("allow_experimental_low_cardinality_type", "1"));
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + "."
            + table
            + " SELECT CAST(k AS "
            + type
            + "), n FROM (SELECT arrayJoin(arrayEnumerate(vs)) AS n, vs[n] AS k FROM (SELECT "
            + values
            + " AS vs))",
        Map.of("allow_experimental_low_cardinality_type", "1"));
    String expected =
        ClickHouseFixture.exec(
            "SELECT n FROM " + DATABASE + "." + table + " ORDER BY k FORMAT TSV");
    for (String zone : ZONES) {
      inZone(
          zone,
          () -> {
            ClickHouseConnection connection =
                connection(
                    "{unit: keys, shape: tail, query: \"SELECT * FROM "
                        + table
                        + "\", key: [k], limit: 2}");
            List<String> seen = new ArrayList<>();
            Optional<Mark> checkpoint = Optional.empty();
            // Pages two and three follow a key rendered as a literal, and so do the later ticks,
            // from the checkpoint: none may read a row again.
            for (int tick = 0; tick < 3; tick++) {
              EventSink sink = ClickHouseFixture.read(connection, "keys", checkpoint);
              for (String record : sink.records) {
                seen.add(record.substring(record.lastIndexOf(':') + 1, record.length() - 1));
              }
              if (!sink.records.isEmpty()) {
                checkpoint = sink.lastMark();
              }
            }
            assertThat(String.join("\n", seen) + "\n").isEqualTo(expected);
          });
    }
  }

  @Test
  void aNullKeyFailsTheTickNamingTheKey() throws Exception {
    ClickHouseFixture.exec(
        "CREATE TABLE " + DATABASE + ".nullable (k Nullable(UInt32)) ENGINE = Memory");
    ClickHouseFixture.exec("INSERT INTO " + DATABASE + ".nullable VALUES (1), (NULL)");
    ClickHouseConnection connection =
        connection("{unit: nullable, shape: tail, query: \"SELECT * FROM nullable\", key: [k]}");
    assertThatThrownBy(() -> ClickHouseFixture.read(connection, "nullable", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.nullable: a key column (k) is NULL in a row");
  }

  @Test
  void aKeyColumnTheResultLacksFailsTheTickNamingIt() {
    ClickHouseConnection connection =
        connection("{unit: missing, shape: tail, query: \"SELECT 1 AS id\", key: [nope]}");
    assertThatThrownBy(() -> ClickHouseFixture.read(connection, "missing", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.missing: the key column \"nope\" is not in the query's result");
  }

  private static void insert(String table, int from, int to) throws Exception {
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + "."
            + table
            + " SELECT number, toDateTime(1710037800 + number), concat('row ', toString(number))"
            + " FROM numbers("
            + from
            + ", "
            + (to - from + 1)
            + ")");
  }

  private static List<Long> ids(EventSink sink) {
    List<Long> ids = new ArrayList<>();
    for (String record : sink.records) {
      int start = record.indexOf("\"id\":") + 5;
      ids.add(Long.parseLong(record.substring(start, record.indexOf(',', start))));
    }
    return ids;
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  private static void inZone(String zone, Body body) throws Exception {
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    try {
      body.run();
    } finally {
      TimeZone.setDefault(before);
    }
  }
}
