package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every MariaDB type the mapping covers, read through a dump store, as exact JSON text. MariaDB's
 * own differences: {@code TINYINT(1)} and {@code BIT(1)} are booleans, a wider {@code BIT(n)} is
 * its unsigned number, {@code DATETIME} is a wall time (no zone) while {@code TIMESTAMP} is an
 * instant (UTC, {@code Z}), {@code JSON} (an alias of {@code LONGTEXT}) nests, and there is no NaN.
 */
class MariaDbMappingTest extends DialectMappingContract {

  static final String FULL_ROW =
      "{\"id\":1,\"small\":-32768,\"big\":9007199254740993,\"ubig\":18446744073709551615,"
          + "\"num\":12345678901234567890.123456789012345678,\"num_scaled\":1.50,"
          + "\"dbl\":0.1,\"flt\":1.5,\"flag\":true,\"bit1\":true,\"bits\":165,"
          + "\"txt\":\"h\u00e9llo \\\"q\\\"\",\"vc\":\"v\",\"d\":\"2024-02-29\","
          + "\"t\":\"13:45:30.123456\",\"dt\":\"2024-03-10T02:30:00.123456\","
          + "\"dt0\":\"2024-03-10T02:30:00\",\"ts\":\"2024-03-10T07:30:00.123456Z\","
          + "\"j\":{\"a\":[1,{\"b\":null}],\"z\":\"x\"},\"bin\":\"AAH/\",\"vb\":\"AAH/\","
          + "\"nothing\":null,\"t_long\":\"25:30:00\",\"t_neg\":\"-01:00:00\","
          + "\"t_frac\":\"-838:59:58.500000\",\"yr\":2024,\"zdt\":\"0000-00-00 00:00:00\","
          + "\"zd\":\"0000-00-00\",\"zts\":\"0000-00-00 00:00:00\","
          + "\"zpart\":\"2024-00-10\",\"zpart_dt\":\"2024-02-00 10:00:00\"}";

  static final String NULL_ROW =
      "{\"id\":2,\"small\":null,\"big\":null,\"ubig\":null,\"num\":null,\"num_scaled\":null,"
          + "\"dbl\":null,\"flt\":null,\"flag\":null,\"bit1\":null,\"bits\":null,\"txt\":null,"
          + "\"vc\":null,\"d\":null,\"t\":null,\"dt\":null,\"dt0\":null,\"ts\":null,\"j\":null,"
          + "\"bin\":null,\"vb\":null,\"nothing\":null,\"t_long\":null,\"t_neg\":null,"
          + "\"t_frac\":null,\"yr\":null,\"zdt\":null,\"zd\":null,\"zts\":null,"
          + "\"zpart\":null,\"zpart_dt\":null}";

  @Override
  TestDatabase.Engine engine() {
    return TestDatabase.Engine.MARIADB;
  }

  @Override
  List<String> tableStatements() {
    return List.of(
        "SET time_zone = '+00:00'",
        // Zero dates need a mode without NO_ZERO_DATE (MariaDB's default has none; MySQL's has).
        "SET sql_mode = ''",
        "CREATE TABLE types (id BIGINT PRIMARY KEY, small SMALLINT, big BIGINT,"
            + " ubig BIGINT UNSIGNED, num DECIMAL(40,18), num_scaled DECIMAL(10,2), dbl DOUBLE,"
            + " flt FLOAT, flag TINYINT(1), bit1 BIT(1), bits BIT(8), txt TEXT, vc VARCHAR(10),"
            + " d DATE, t TIME(6), dt DATETIME(6), dt0 DATETIME, ts TIMESTAMP(6) NULL, j JSON,"
            + " bin BLOB, vb VARBINARY(4), nothing TEXT, t_long TIME, t_neg TIME, t_frac TIME(6),"
            + " yr YEAR, zdt DATETIME, zd DATE, zts TIMESTAMP NULL, zpart DATE,"
            + " zpart_dt DATETIME)",
        "INSERT INTO types VALUES (1, -32768, 9007199254740993, 18446744073709551615,"
            + " 12345678901234567890.123456789012345678, 1.5, 0.1, 1.5, 1, b'1', b'10100101',"
            + " 'h\u00e9llo \"q\"', 'v', '2024-02-29', '13:45:30.123456',"
            + " '2024-03-10 02:30:00.123456', '2024-03-10 02:30:00', '2024-03-10 07:30:00.123456',"
            + " '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}', X'0001FF', X'0001FF', NULL,"
            + " '25:30:00', '-01:00:00', '-838:59:58.5', 2024, '0000-00-00 00:00:00',"
            + " '0000-00-00', '0000-00-00 00:00:00', '2024-00-10', '2024-02-00 10:00:00')",
        "INSERT INTO types (id) VALUES (2)");
  }

  @Override
  List<String> expectedRows() {
    return List.of(FULL_ROW, NULL_ROW);
  }

  @Test
  void aDatetimeIsPlacedInTheStoresZone() throws Exception {
    DbStore store =
        TestDatabase.zonedDump("types", "SELECT dt, dt0 FROM types WHERE id = 1", "Europe/Berlin");
    assertThat(Dumps.records(database, store))
        .containsExactly(
            "{\"dt\":\"2024-03-10T01:30:00.123456Z\",\"dt0\":\"2024-03-10T01:30:00Z\"}");
  }
}
