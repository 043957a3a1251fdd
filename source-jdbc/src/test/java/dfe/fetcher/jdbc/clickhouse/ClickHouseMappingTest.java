package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every ClickHouse 18.16 type against the real server, as the exact JSON text a dump lands, under a
 * JVM zone east of UTC and one west of it: no value may depend on the JVM's zone.
 */
@Timeout(120)
class ClickHouseMappingTest {

  private static final String DATABASE = "dfe_mapping";

  @BeforeAll
  static void table() throws Exception {
    ClickHouseFixture.ensureServer();
    ClickHouseFixture.freshDatabase(DATABASE);
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".types (id UInt32, i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16,"
            + " u32 UInt32, u64 UInt64, d Decimal(38, 10), d32 Decimal32(2), d64 Decimal64(4),"
            + " d128 Decimal128(20), f32 Float32, f64 Float64, s String, fs FixedString(4),"
            + " uuid UUID, day Date, ts DateTime, ts_kolkata DateTime('Asia/Kolkata'),"
            + " ts_la DateTime('America/Los_Angeles'), e8 Enum8('a' = 1, 'b' = -2),"
            + " e16 Enum16('x' = 1000), arr Array(Int64), arr_s Array(Nullable(String)),"
            + " nested Array(Array(UInt8)), tup Tuple(UInt8, String, DateTime('Asia/Kolkata')),"
            + " n Nullable(Int32), lc LowCardinality(String)) ENGINE = MergeTree ORDER BY id",
        Map.of("allow_experimental_low_cardinality_type", "1"));
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + ".types VALUES (1, -128, -32768, -2147483648, -9223372036854775808, 255, 65535,"
            + " 4294967295, 18446744073709551615, '12345678901234567890.1234567890', 1.5, -0.0001,"
            + " '123456789012345678.12345678901234567890', 0.1, 0.1, 'a\\tb\\n\"c\\'\\\\ é',"
            + " 'ab', 'f5323a56-f4b3-4d8f-87ce-abdc769dae9f', '2024-02-29', 1710037800,"
            + " 1710037800, 1710037800, 'b', 'x', [9007199254740993, -1], ['x\\'y', NULL],"
            + " [[1], [], [2, 3]], (7, 'q', 1710037800), NULL, 'low')");
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + ".types (id, f32, f64, s, fs, ts, n, arr) SELECT 2, nan, inf, unhex('C328'),"
            + " toFixedString(unhex('FF00'), 4), 0, 42, [] UNION ALL SELECT 3, -inf, -inf,"
            + " '', '', 1, -1, [1]");
  }

  private static final List<String> EXPECTED =
      List.of(
          "{\"id\":1,\"i8\":-128,\"i16\":-32768,\"i32\":-2147483648,\"i64\":-9223372036854775808,"
              + "\"u8\":255,\"u16\":65535,\"u32\":4294967295,\"u64\":18446744073709551615,"
              + "\"d\":12345678901234567890.1234567890,\"d32\":1.50,\"d64\":-0.0001,"
              + "\"d128\":123456789012345678.12345678901234567890,\"f32\":0.1,\"f64\":0.1,"
              + "\"s\":\"a\\tb\\n\\\"c'\\\\ é\",\"fs\":\"ab\\u0000\\u0000\","
              + "\"uuid\":\"f5323a56-f4b3-4d8f-87ce-abdc769dae9f\",\"day\":\"2024-02-29\","
              + "\"ts\":\"2024-03-10T02:30:00Z\",\"ts_kolkata\":\"2024-03-10T02:30:00Z\","
              + "\"ts_la\":\"2024-03-10T02:30:00Z\",\"e8\":\"b\",\"e16\":\"x\","
              + "\"arr\":[9007199254740993,-1],\"arr_s\":[\"x'y\",null],"
              + "\"nested\":[[1],[],[2,3]],\"tup\":[7,\"q\",\"2024-03-10T02:30:00Z\"],"
              + "\"n\":null,\"lc\":\"low\"}",
          "{\"id\":2,\"i8\":0,\"i16\":0,\"i32\":0,\"i64\":0,\"u8\":0,\"u16\":0,\"u32\":0,\"u64\":0,"
              + "\"d\":0.0000000000,\"d32\":0.00,\"d64\":0.0000,\"d128\":0.00000000000000000000,"
              + "\"f32\":\"NaN\",\"f64\":\"Infinity\",\"s\":\"wyg=\",\"fs\":\"/wAAAA==\","
              + "\"uuid\":\"00000000-0000-0000-0000-000000000000\",\"day\":\"1970-01-01\","
              + "\"ts\":\"1970-01-01T00:00:00Z\",\"ts_kolkata\":\"1970-01-01T00:00:00Z\","
              + "\"ts_la\":\"1970-01-01T00:00:00Z\",\"e8\":\"b\",\"e16\":\"x\",\"arr\":[],"
              + "\"arr_s\":[],\"nested\":[],\"tup\":[0,\"\",\"1970-01-01T00:00:00Z\"],"
              + "\"n\":42,\"lc\":\"\"}",
          "");

  @Test
  void everyTypeLandsExactlyWhateverTheJvmZone() throws Exception {
    ClickHouseConnection connection = connection();
    List<String> east = dumpUnder("Asia/Kolkata", connection);
    List<String> west = dumpUnder("America/Los_Angeles", connection);
    assertThat(east).hasSize(3);
    assertThat(east.get(0)).isEqualTo(EXPECTED.get(0));
    assertThat(east.get(1)).isEqualTo(EXPECTED.get(1));
    assertThat(east.get(2))
        .contains("\"f32\":\"-Infinity\",\"f64\":\"-Infinity\",\"s\":\"\"")
        .contains("\"ts\":\"1970-01-01T00:00:01Z\"")
        .contains("\"n\":-1");
    assertThat(west).isEqualTo(east);
  }

  @Test
  void aBareNullIsNullAlsoInsideArraysAndTuples() throws Exception {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: "
                + ClickHouseFixture.URL
                + "\nstores:\n  - {unit: nulls, shape: dump, query: \"SELECT NULL AS n, [NULL] AS"
                + " a, tuple(NULL, 1) AS t, [[NULL, 'x']] AS nested\"}\n");
    EventSink sink = ClickHouseFixture.read(connection, "nulls", Optional.empty());
    assertThat(sink.records)
        .containsExactly("{\"n\":null,\"a\":[null],\"t\":[null,1],\"nested\":[[null,\"x\"]]}");
  }

  @Test
  void aTypeTheMappingDoesNotKnowFailsTheTickNamingColumnAndType() throws Exception {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: "
                + ClickHouseFixture.URL
                + "\nstores:\n  - {unit: states, shape: dump, query: \"SELECT 1 AS id,"
                + " uniqState(number) AS state FROM numbers(3)\"}\n");
    EventSink sink = new EventSink();
    assertThatThrownBy(() -> read(connection, "states", sink))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.states")
        .hasMessageContaining("column \"state\"")
        .hasMessageContaining("AggregateFunction(uniq, UInt64)");
    assertThat(sink.events).isEmpty();
  }

  private static void read(ClickHouseConnection connection, String unit, EventSink sink)
      throws Exception {
    try (var open = ClickHouseFixture.open(connection)) {
      open.source(unit).read(Optional.empty(), sink, new dfe.fetcher.core.row.Cancellation());
    }
  }

  private static ClickHouseConnection connection() {
    return ClickHouseFixture.connection(
        "wh",
        "engine: clickhouse\nurl: "
            + ClickHouseFixture.URL
            + "\ndatabase: "
            + DATABASE
            + "\nstores:\n  - {unit: types, shape: dump, query: \"SELECT * FROM types ORDER BY"
            + " id\"}\n");
  }

  private static List<String> dumpUnder(String zone, ClickHouseConnection connection)
      throws Exception {
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    try {
      EventSink sink = ClickHouseFixture.read(connection, "types", Optional.empty());
      assertThat(sink.events).containsExactly("begin", "end");
      return sink.records;
    } finally {
      TimeZone.setDefault(before);
    }
  }
}
