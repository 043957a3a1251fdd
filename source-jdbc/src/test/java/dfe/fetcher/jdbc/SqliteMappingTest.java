package dfe.fetcher.jdbc;

import java.util.List;

/**
 * SQLite's values read through a dump store, as exact JSON text. SQLite has storage classes, not
 * types: the mapping follows the declared type where the driver reports one (BOOLEAN, DATE, BLOB),
 * a DECIMAL is stored as a REAL (so only values a double holds survive; store exact decimals as
 * TEXT), and dates and times are the text as stored (SQLite has no date type, and the driver's own
 * parsing cuts to milliseconds in the JVM's zone).
 */
class SqliteMappingTest extends DialectMappingContract {

  static final String FULL_ROW =
      "{\"id\":1,\"big\":9007199254740993,\"num_text\":\"12345678901234567890.123456789012345678\","
          + "\"num\":1.5,\"dbl\":0.1,\"flag\":true,\"txt\":\"h\u00e9llo \\\"q\\\"\","
          + "\"d\":\"2024-02-29\",\"ts\":\"2024-03-10 02:30:00.123456\","
          + "\"j\":\"{\\\"a\\\":1}\",\"bin\":\"AAH/\",\"absent\":null,\"cl\":\"hello clob\"}";

  static final String NULL_ROW =
      "{\"id\":2,\"big\":null,\"num_text\":null,\"num\":null,\"dbl\":null,\"flag\":null,"
          + "\"txt\":null,\"d\":null,\"ts\":null,\"j\":null,\"bin\":null,\"absent\":null,\"cl\":null}";

  @Override
  TestDatabase.Engine engine() {
    return TestDatabase.Engine.SQLITE;
  }

  @Override
  List<String> tableStatements() {
    return List.of(
        "CREATE TABLE types (id INTEGER PRIMARY KEY, big BIGINT, num_text TEXT,"
            + " num DECIMAL(10,2), dbl DOUBLE, flag BOOLEAN, txt TEXT, d DATE, ts DATETIME,"
            + " j TEXT, bin BLOB, absent TEXT, cl CLOB)",
        "INSERT INTO types VALUES (1, 9007199254740993, '12345678901234567890.123456789012345678',"
            + " 1.50, 0.1, 1, 'h\u00e9llo \"q\"', '2024-02-29', '2024-03-10 02:30:00.123456',"
            + " '{\"a\":1}', X'0001FF', NULL, 'hello clob')",
        "INSERT INTO types (id) VALUES (2)");
  }

  @Override
  List<String> expectedRows() {
    return List.of(FULL_ROW, NULL_ROW);
  }
}
