package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One writer writes every row of a read with one JSON generator: each row must come out as its own
 * record, exactly, and a row that failed half way must leave nothing of itself in the next.
 */
class RecordWriterRowsTest {

  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

  private static final String QUERY =
      "SELECT * FROM (VALUES (1, 'a', ARRAY['x', NULL]), (2, 'b', ARRAY['y']),"
          + " (3, NULL, ARRAY['z\"'])) v(id, name, tags) ORDER BY id";

  /**
   * The real result set, but reading row {@code failingRow}'s array fails, as a connection lost in
   * the middle of a row would; a driver cannot be made to do that on cue.
   */
  private static ResultSet failingOnArrayOfRow(ResultSet real, int failingRow) {
    return (ResultSet)
        Proxy.newProxyInstance(
            ResultSet.class.getClassLoader(),
            new Class<?>[] {ResultSet.class},
            (proxy, method, arguments) -> {
              if (method.getName().equals("getArray") && real.getRow() == failingRow) {
                throw new SQLException("the connection was lost", "08006");
              }
              try {
                return method.invoke(real, arguments);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static String text(dfe.fetcher.core.envelope.RawRecord record) {
    return new String(record.bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void eachRowIsItsOwnRecordAndARowThatFailedHalfWayLeavesNothingInTheNext() throws Exception {
    Dialect dialect = Dialect.ofUrl(URL);
    try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet real = statement.executeQuery(QUERY)) {
      ResultSet rows = failingOnArrayOfRow(real, 2);
      RecordWriter writer =
          new RecordWriter(Columns.ofQuery(rows, dialect, "t"), Optional.empty(), dialect);

      assertThat(rows.next()).isTrue();
      assertThat(text(writer.write(rows)))
          .isEqualTo("{\"id\":1,\"name\":\"a\",\"tags\":[\"x\",null]}");
      assertThat(rows.next()).isTrue();
      assertThatThrownBy(() -> writer.write(rows)).isInstanceOf(SQLException.class);
      assertThat(rows.next()).isTrue();
      assertThat(text(writer.write(rows)))
          .isEqualTo("{\"id\":3,\"name\":null,\"tags\":[\"z\\\"\"]}");
    }
  }

  @Test
  void rowsAfterRowsCarryNoSeparatorOrLeftOver() throws Exception {
    Dialect dialect = Dialect.ofUrl(URL);
    try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(QUERY)) {
      RecordWriter writer =
          new RecordWriter(Columns.ofQuery(rows, dialect, "t"), Optional.empty(), dialect);
      StringBuilder all = new StringBuilder();
      while (rows.next()) {
        all.append(text(writer.write(rows))).append('\n');
      }

      assertThat(all.toString())
          .isEqualTo(
              "{\"id\":1,\"name\":\"a\",\"tags\":[\"x\",null]}\n"
                  + "{\"id\":2,\"name\":\"b\",\"tags\":[\"y\"]}\n"
                  + "{\"id\":3,\"name\":null,\"tags\":[\"z\\\"\"]}\n");
    }
  }
}
