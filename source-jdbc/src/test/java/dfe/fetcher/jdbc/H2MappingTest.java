package dfe.fetcher.jdbc;

import java.util.List;

/**
 * Every H2 type the mapping covers, read through a dump store, as exact JSON text. H2 folds
 * unquoted names to upper case, so the labels are upper case; {@code DECFLOAT} holds NaN and the
 * infinities.
 */
class H2MappingTest extends DialectMappingContract {

  static final String FULL_ROW =
      "{\"ID\":1,\"SMALL\":-32768,\"BIG\":9007199254740993,"
          + "\"NUM\":12345678901234567890.123456789012345678,\"NUM_SCALED\":1.50,"
          + "\"DEC_NAN\":\"NaN\",\"DEC_INF\":\"Infinity\",\"DBL\":0.1,\"DBL_NAN\":\"NaN\","
          + "\"DBL_NINF\":\"-Infinity\",\"REAL4\":1.5,\"FLAG\":true,"
          + "\"TXT\":\"h\u00e9llo \\\"q\\\"\",\"CH\":\"abc\",\"D\":\"2024-02-29\","
          + "\"T\":\"13:45:30.123456\",\"TS\":\"2024-03-10T02:30:00.123456\","
          + "\"TS0\":\"2024-03-10T02:30:00\",\"TSTZ\":\"2024-03-10T07:30:00.123456Z\","
          + "\"J\":{\"a\":[1,{\"b\":null}],\"z\":\"x\"},\"INTS\":[1,null,3],"
          + "\"U\":\"0190f8a0-1d2e-7c3b-8a4f-123456789abc\",\"BIN\":\"AAH/\",\"BL\":\"AAH/\","
          + "\"NOTHING\":null,\"CL\":\"hello clob\",\"NCL\":\"h\u00e9llo nclob\","
          + "\"TTZ\":\"13:45:30+02:00\",\"TTZ_UTC\":\"13:45:30Z\","
          + "\"EN\":\"b\"}";

  static final String NULL_ROW =
      "{\"ID\":2,\"SMALL\":null,\"BIG\":null,\"NUM\":null,\"NUM_SCALED\":null,\"DEC_NAN\":null,"
          + "\"DEC_INF\":null,\"DBL\":null,\"DBL_NAN\":null,\"DBL_NINF\":null,\"REAL4\":null,"
          + "\"FLAG\":null,\"TXT\":null,\"CH\":null,\"D\":null,\"T\":null,\"TS\":null,"
          + "\"TS0\":null,\"TSTZ\":null,\"J\":null,\"INTS\":null,\"U\":null,\"BIN\":null,"
          + "\"BL\":null,\"NOTHING\":null,\"CL\":null,\"NCL\":null,\"TTZ\":null,\"TTZ_UTC\":null,"
          + "\"EN\":null}";

  @Override
  TestDatabase.Engine engine() {
    return TestDatabase.Engine.H2;
  }

  @Override
  List<String> tableStatements() {
    return List.of(
        "CREATE TABLE types (id BIGINT PRIMARY KEY, small SMALLINT, big BIGINT,"
            + " num NUMERIC(40,18), num_scaled NUMERIC(10,2), dec_nan DECFLOAT, dec_inf DECFLOAT,"
            + " dbl DOUBLE PRECISION, dbl_nan DOUBLE PRECISION, dbl_ninf DOUBLE PRECISION,"
            + " real4 REAL, flag BOOLEAN, txt VARCHAR, ch CHAR(3), d DATE, t TIME(6),"
            + " ts TIMESTAMP(6), ts0 TIMESTAMP(0), tstz TIMESTAMP(6) WITH TIME ZONE, j JSON,"
            + " ints INTEGER ARRAY, u UUID, bin VARBINARY, bl BLOB, nothing VARCHAR, cl CLOB,"
            + " ncl NCLOB, ttz TIME WITH TIME ZONE, ttz_utc TIME WITH TIME ZONE, en ENUM('a', 'b'))",
        "INSERT INTO types VALUES (1, -32768, 9007199254740993,"
            + " 12345678901234567890.123456789012345678, 1.5, CAST('NaN' AS DECFLOAT),"
            + " CAST('Infinity' AS DECFLOAT), 0.1, CAST('NaN' AS DOUBLE PRECISION),"
            + " CAST('-Infinity' AS DOUBLE PRECISION), 1.5, TRUE, 'h\u00e9llo \"q\"', 'abc',"
            + " DATE '2024-02-29', TIME '13:45:30.123456', TIMESTAMP '2024-03-10 02:30:00.123456',"
            + " TIMESTAMP '2024-03-10 02:30:00',"
            + " TIMESTAMP WITH TIME ZONE '2024-03-10 02:30:00.123456-05:00',"
            + " '{\"a\":[1,{\"b\":null}],\"z\":\"x\"}' FORMAT JSON, ARRAY[1, NULL, 3],"
            + " '0190f8a0-1d2e-7c3b-8a4f-123456789abc', X'0001FF', X'0001FF', NULL,"
            + " 'hello clob', 'h\u00e9llo nclob', TIME WITH TIME ZONE '13:45:30+02:00',"
            + " TIME WITH TIME ZONE '13:45:30+00:00', 'b')",
        "INSERT INTO types (id) VALUES (2)");
  }

  @Override
  List<String> expectedRows() {
    return List.of(FULL_ROW, NULL_ROW);
  }
}
