package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
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
          + "\"u\":\"0190f8a0-1d2e-7c3b-8a4f-123456789abc\",\"bin\":\"AAH/\",\"nothing\":null,"
          + "\"x\":\"<a b=\\\"1\\\">t</a>\",\"ts_inf\":\"infinity\",\"ts_ninf\":\"-infinity\","
          + "\"tstz_inf\":\"infinity\",\"tstz_ninf\":\"-infinity\",\"d_inf\":\"infinity\","
          + "\"d_ninf\":\"-infinity\",\"m\":1234.56,\"m_neg\":-1234567.89,\"m_small\":0.07,"
          + "\"tz\":\"13:45:30+02:00\",\"tz6\":\"13:45:30.123456-05:30\",\"b1\":true,"
          + "\"b8\":\"10100101\",\"vb\":\"101\",\"iv\":\"1 day 02:00:00\",\"ip\":\"10.0.0.1/8\","
          + "\"en\":\"sad\",\"dom\":5,"
          + "\"stamps_inf\":[\"infinity\",\"2024-03-10T02:30:00\",\"-infinity\"]}";

  static final String NULL_ROW =
      "{\"id\":2,\"small\":null,\"int4\":null,\"big\":null,\"num\":null,\"num_scaled\":null,"
          + "\"num_nan\":null,\"real4\":null,\"dbl\":null,\"dbl_nan\":null,\"dbl_inf\":null,"
          + "\"dbl_ninf\":null,\"flag\":null,\"txt\":null,\"vc\":null,\"ch\":null,\"d\":null,"
          + "\"t\":null,\"ts\":null,\"ts0\":null,\"tstz\":null,\"j\":null,\"jb\":null,"
          + "\"ints\":null,\"texts\":null,\"grid\":null,\"stamps\":null,\"nums\":null,"
          + "\"u\":null,\"bin\":null,\"nothing\":null,\"x\":null,\"ts_inf\":null,\"ts_ninf\":null,"
          + "\"tstz_inf\":null,\"tstz_ninf\":null,\"d_inf\":null,\"d_ninf\":null,\"m\":null,"
          + "\"m_neg\":null,\"m_small\":null,\"tz\":null,\"tz6\":null,\"b1\":null,\"b8\":null,"
          + "\"vb\":null,\"iv\":null,\"ip\":null,\"en\":null,\"dom\":null,"
          + "\"stamps_inf\":null}";

  @Override
  TestDatabase.Engine engine() {
    return TestDatabase.Engine.POSTGRES;
  }

  @Override
  List<String> tableStatements() {
    return List.of(
        // money's text follows lc_monetary, which each session takes from the database's setting.
        "DO $$ BEGIN EXECUTE 'ALTER DATABASE ' || quote_ident(current_database())"
            + " || ' SET lc_monetary = ''C'''; END $$",
        "CREATE TYPE mood AS ENUM ('ok', 'sad')",
        "CREATE DOMAIN positive AS integer CHECK (VALUE > 0)",
        "CREATE TABLE types (id bigint PRIMARY KEY, small smallint, int4 integer, big bigint,"
            + " num numeric, num_scaled numeric(10,2), num_nan numeric, real4 real,"
            + " dbl double precision, dbl_nan double precision, dbl_inf double precision,"
            + " dbl_ninf double precision, flag boolean, txt text, vc varchar(10), ch char(3),"
            + " d date, t time(6), ts timestamp(6), ts0 timestamp(0), tstz timestamptz(6),"
            + " j json, jb jsonb, ints integer[], texts text[], grid integer[][],"
            + " stamps timestamp(0)[], nums numeric[], u uuid, bin bytea, nothing text, x xml,"
            + " ts_inf timestamp, ts_ninf timestamp, tstz_inf timestamptz, tstz_ninf timestamptz,"
            + " d_inf date, d_ninf date, m money, m_neg money, m_small money, tz timetz(0),"
            + " tz6 timetz(6), b1 bit(1), b8 bit(8), vb varbit, iv interval, ip inet, en mood,"
            + " dom positive,"
            + " stamps_inf timestamp(0)[])",
        "INSERT INTO types VALUES (1, -32768, 2147483647, 9007199254740993,"
            + " 12345678901234567890.123456789012345678, 1.5, 'NaN', 1.5, 0.1, 'NaN',"
            + " 'Infinity', '-Infinity', true, 'h\u00e9llo \"q\"', 'v', 'abc', '2024-02-29',"
            + " '13:45:30.123456', '2024-03-10 02:30:00.123456', '2024-03-10 02:30:00',"
            + " '2024-03-10 02:30:00.123456-05:00', '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}',"
            + " '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}', '{1,NULL,3}', '{a,\"b,c\"}',"
            + " '{{1,2},{3,4}}', '{\"2024-03-10 02:30:00\"}', '{1.50,12345678901234567890.1}',"
            + " '0190f8a0-1d2e-7c3b-8a4f-123456789abc', '\\x0001ff', NULL, '<a b=\"1\">t</a>',"
            + " 'infinity', '-infinity', 'infinity', '-infinity', 'infinity', '-infinity',"
            + " '1234.56', '-1234567.89', '0.07', '13:45:30+02', '13:45:30.123456-05:30', B'1',"
            + " B'10100101', B'101', '1 day 2 hours', '10.0.0.1/8', 'sad', 5,"
            + " '{infinity,\"2024-03-10 02:30:00\",-infinity}')",
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

  @Test
  void aTypeTheMappingDoesNotKnowFailsTheTickNamingColumnTypeAndStore() {
    database.execute("CREATE TYPE pair AS (a integer, b integer)");
    DbStore store = TestDatabase.dump("pairs", "SELECT 1 AS id, ROW(1, 2)::pair AS p");
    assertThatThrownBy(() -> Dumps.records(database, store))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("warehouse.pairs")
        .hasMessageContaining("column \"p\"")
        .hasMessageContaining("type \"pair\"");
  }

  @Test
  void anArrayOfATypeTheMappingDoesNotKnowFailsTheTickNamingTheColumnAndType() {
    database.execute("CREATE TYPE couple AS (a integer, b integer)");
    DbStore store = TestDatabase.dump("couples", "SELECT ARRAY[ROW(1, 2)::couple] AS ps");
    assertThatThrownBy(() -> Dumps.records(database, store))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("warehouse.couples")
        .hasMessageContaining("array column \"ps\"")
        .hasMessageContaining("type \"couple\"");
  }

  @Test
  void textArraysLandEveryElementExactly() throws Exception {
    // One-dimensional arrays of text elements take a quicker path (RecordWriter.writeArray); these
    // are the elements its decoding could get wrong, beside the shapes that keep the general one.
    DbStore store =
        TestDatabase.dump(
            "texts",
            "SELECT ARRAY['', 'NULL', NULL, 'a\"b', 'back\\slash', 'comma,here', '{brace}',"
                + " ' spaced ', 'h\u00e9llo', '\uD83D\uDE00']::text[] AS t,"
                + " ARRAY['x', NULL]::varchar(5)[] AS v, ARRAY['ab']::char(3)[] AS c,"
                + " ARRAY[ARRAY['a', 'b'], ARRAY['c', NULL]]::text[] AS grid,"
                + " '[0:1]={p,q}'::text[] AS shifted, ARRAY[]::text[] AS none,"
                + " ARRAY['{\"k\":1}']::jsonb[] AS docs");
    assertThat(Dumps.records(database, store))
        .containsExactly(
            "{\"t\":[\"\",\"NULL\",null,\"a\\\"b\",\"back\\\\slash\",\"comma,here\",\"{brace}\","
                + "\" spaced \",\"h\u00e9llo\",\"\\uD83D\\uDE00\"],\"v\":[\"x\",null],\"c\":[\"ab \"],"
                + "\"grid\":[[\"a\",\"b\"],[\"c\",null]],\"shifted\":[\"p\",\"q\"],\"none\":[],"
                + "\"docs\":[{\"k\": 1}]}");
  }

  @Test
  void moneyAboveAThousandLandsExactWhateverItsSign() throws Exception {
    DbStore store =
        TestDatabase.dump(
            "money",
            "SELECT '1234.56'::money AS a, '-0.01'::money AS b,"
                + " '92233720368547758.07'::money AS c");
    assertThat(Dumps.records(database, store))
        .containsExactly("{\"a\":1234.56,\"b\":-0.01,\"c\":92233720368547758.07}");
  }
}
