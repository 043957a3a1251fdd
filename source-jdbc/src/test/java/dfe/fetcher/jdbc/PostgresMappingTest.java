package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every PostgreSQL type the mapping covers, read through a dump store, as exact JSON text. */
class PostgresMappingTest extends DialectMappingContract {

  static final String FULL_ROW =
      "{\"id\":1,\"small\":-32768,\"int4\":2147483647,\"big\":9007199254740993,"
          + "\"num\":12345678901234567890.123456789012345678,\"num_scaled\":1.50,"
          + "\"num_nan\":\"NaN\",\"real4\":1.5,\"dbl\":0.1,\"dbl_nan\":\"NaN\","
          + "\"dbl_inf\":\"Infinity\",\"dbl_ninf\":\"-Infinity\",\"flag\":true,"
          + "\"txt\":\"h\u00e9llo \\\"q\\\"\",\"vc\":\"v\",\"ch\":\"abc\","
          + "\"d\":\"2024-02-29\",\"t\":\"13:45:30.123456\","
          + "\"ts\":\"2024-03-10T02:30:00.123456\",\"ts0\":\"2024-03-10T02:30:00\","
          + "\"tstz\":\"2024-03-10T07:30:00.123456Z\","
          + "\"j\":{\"a\":[1,{\"b\":null}],\"z\":\"x\"},"
          + "\"jb\":{\"a\": [1, {\"b\": null}], \"z\": \"x\"},"
          + "\"ints\":[1,null,3],\"texts\":[\"a\",\"b,c\"],\"grid\":[[1,2],[3,4]],"
          + "\"stamps\":[\"2024-03-10T02:30:00\"],\"nums\":[1.50,12345678901234567890.1],"
          + "\"u\":\"0190f8a0-1d2e-7c3b-8a4f-123456789abc\",\"bin\":\"AAH/\",\"nothing\":null}";

  static final String NULL_ROW =
      "{\"id\":2,\"small\":null,\"int4\":null,\"big\":null,\"num\":null,\"num_scaled\":null,"
          + "\"num_nan\":null,\"real4\":null,\"dbl\":null,\"dbl_nan\":null,\"dbl_inf\":null,"
          + "\"dbl_ninf\":null,\"flag\":null,\"txt\":null,\"vc\":null,\"ch\":null,\"d\":null,"
          + "\"t\":null,\"ts\":null,\"ts0\":null,\"tstz\":null,\"j\":null,\"jb\":null,"
          + "\"ints\":null,\"texts\":null,\"grid\":null,\"stamps\":null,\"nums\":null,"
          + "\"u\":null,\"bin\":null,\"nothing\":null}";

  @Override
  TestDatabase.Engine engine() {
    return TestDatabase.Engine.POSTGRES;
  }

  @Override
  List<String> tableStatements() {
    return List.of(
        "CREATE TABLE types (id bigint PRIMARY KEY, small smallint, int4 integer, big bigint,"
            + " num numeric, num_scaled numeric(10,2), num_nan numeric, real4 real,"
            + " dbl double precision, dbl_nan double precision, dbl_inf double precision,"
            + " dbl_ninf double precision, flag boolean, txt text, vc varchar(10), ch char(3),"
            + " d date, t time(6), ts timestamp(6), ts0 timestamp(0), tstz timestamptz(6),"
            + " j json, jb jsonb, ints integer[], texts text[], grid integer[][],"
            + " stamps timestamp(0)[], nums numeric[], u uuid, bin bytea, nothing text)",
        "INSERT INTO types VALUES (1, -32768, 2147483647, 9007199254740993,"
            + " 12345678901234567890.123456789012345678, 1.5, 'NaN', 1.5, 0.1, 'NaN',"
            + " 'Infinity', '-Infinity', true, 'h\u00e9llo \"q\"', 'v', 'abc', '2024-02-29',"
            + " '13:45:30.123456', '2024-03-10 02:30:00.123456', '2024-03-10 02:30:00',"
            + " '2024-03-10 02:30:00.123456-05:00', '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}',"
            + " '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}', '{1,NULL,3}', '{a,\"b,c\"}',"
            + " '{{1,2},{3,4}}', '{\"2024-03-10 02:30:00\"}', '{1.50,12345678901234567890.1}',"
            + " '0190f8a0-1d2e-7c3b-8a4f-123456789abc', '\\x0001ff', NULL)",
        "INSERT INTO types (id) VALUES (2)");
  }

  @Override
  List<String> expectedRows() {
    return List.of(FULL_ROW, NULL_ROW);
  }

  @Test
  void aTimestampWithoutZoneIsPlacedInTheStoresZone() throws Exception {
    DbStore store =
        TestDatabase.zonedDump("types", "SELECT ts, ts0 FROM types WHERE id = 1", "Europe/Berlin");
    assertThat(Dumps.records(database, store))
        .containsExactly(
            "{\"ts\":\"2024-03-10T01:30:00.123456Z\",\"ts0\":\"2024-03-10T01:30:00Z\"}");
  }

  @Test
  void aNumericAggregateKeepsItsDigits() throws Exception {
    DbStore store =
        TestDatabase.dump("sums", "SELECT sum(num) AS total, 2::numeric / 3 AS third FROM types");
    assertThat(Dumps.records(database, store))
        .containsExactly(
            "{\"total\":12345678901234567890.123456789012345678,\"third\":0.66666666666666666667}");
  }
}
