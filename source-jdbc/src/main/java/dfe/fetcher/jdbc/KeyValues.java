package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.KeysetMark;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A tail's key values: read from a row with their types, and bound back into the next page's query
 * with the same types, so a key never passes through text or a double on its way.
 */
final class KeyValues {

  private KeyValues() {}

  /** The key of the current row; {@code columns} are the key columns' 1-based indexes. */
  static KeysetMark read(ResultSet rows, Columns all, int[] columns, Dialect dialect)
      throws SQLException {
    List<KeysetMark.Value> values = new ArrayList<>();
    for (int index : columns) {
      values.add(value(rows, index, all.all().get(index - 1), dialect));
    }
    return new KeysetMark(values);
  }

  private static KeysetMark.Value value(
      ResultSet rows, int index, Columns.Column column, Dialect dialect) throws SQLException {
    KeysetMark.Value value =
        switch (column.kind()) {
          case INTEGER -> {
            Object number = rows.getObject(index);
            if (number instanceof BigInteger big) {
              yield new KeysetMark.DecimalValue(new BigDecimal(big));
            }
            yield number == null
                ? null
                : new KeysetMark.IntegerValue(((Number) number).longValue());
          }
          case DECIMAL -> {
            BigDecimal decimal = rows.getBigDecimal(index);
            yield decimal == null ? null : new KeysetMark.DecimalValue(decimal);
          }
          case TIMESTAMP, TIMESTAMP_OR_INFINITY, TIMESTAMP_OR_ZERO -> {
            LocalDateTime local = Timestamps.wall(rows, index, dialect);
            yield local == null ? null : new KeysetMark.LocalTimestampValue(local);
          }
          case TIMESTAMP_WITH_ZONE, TIMESTAMP_WITH_ZONE_OR_ZERO -> {
            Instant at = Timestamps.instant(rows, index, dialect);
            yield at == null ? null : new KeysetMark.TimestampValue(at);
          }
          case TIMESTAMP_WITH_ZONE_OR_INFINITY -> {
            OffsetDateTime at = rows.getObject(index, OffsetDateTime.class);
            if (at != null && (at.equals(OffsetDateTime.MAX) || at.equals(OffsetDateTime.MIN))) {
              throw new SQLException(
                  "key column \""
                      + column.label()
                      + "\" is infinite in a row; a keyset key must be a point in time",
                  "22008");
            }
            yield at == null ? null : new KeysetMark.TimestampValue(at.toInstant());
          }
          case DATE, DATE_OR_INFINITY, DATE_OR_ZERO -> {
            LocalDate date = rows.getObject(index, LocalDate.class);
            yield date == null ? null : new KeysetMark.LocalTimestampValue(date.atStartOfDay());
          }
          case BINARY -> {
            byte[] bytes = rows.getBytes(index);
            yield bytes == null ? null : new KeysetMark.BytesValue(bytes);
          }
          default -> {
            String text = rows.getString(index);
            yield text == null ? null : new KeysetMark.StringValue(text);
          }
        };
    if (value == null) {
      throw new SQLException(
          "key column \"" + column.label() + "\" is NULL in a row; a keyset key must never be NULL",
          "22004");
    }
    return value;
  }

  /**
   * Binds {@code value} at {@code parameter} with its own SQL type, as {@code dialect}'s driver
   * needs it: never through the JVM's zone, never as a type the column cannot be compared with.
   */
  static void bind(
      PreparedStatement statement, int parameter, KeysetMark.Value value, Dialect dialect)
      throws SQLException {
    if (value instanceof KeysetMark.IntegerValue integer) {
      statement.setLong(parameter, integer.value());
    } else if (value instanceof KeysetMark.DecimalValue decimal) {
      statement.setBigDecimal(parameter, decimal.value());
    } else if (value instanceof KeysetMark.StringValue string) {
      if (dialect == Dialect.POSTGRES) {
        // Untyped, so PostgreSQL takes the key column's own type (uuid, enum, inet, text):
        // a varchar parameter has no comparison with a uuid column.
        statement.setObject(parameter, string.value(), Types.OTHER);
      } else {
        statement.setString(parameter, string.value());
      }
    } else if (value instanceof KeysetMark.TimestampValue timestamp) {
      if (dialect == Dialect.MYSQL) {
        // The session's zone is UTC (set when the pool connects): a TIMESTAMP is compared as UTC
        // wall time. Connector/J turns an OffsetDateTime into the JVM zone's wall time instead.
        statement.setObject(parameter, LocalDateTime.ofInstant(timestamp.value(), ZoneOffset.UTC));
      } else {
        statement.setObject(parameter, OffsetDateTime.ofInstant(timestamp.value(), ZoneOffset.UTC));
      }
    } else if (value instanceof KeysetMark.LocalTimestampValue local) {
      statement.setObject(parameter, local.value());
    } else if (value instanceof KeysetMark.BytesValue bytes) {
      statement.setBytes(parameter, bytes.value());
    } else {
      throw new IllegalArgumentException("no binding for " + value.getClass().getSimpleName());
    }
  }
}
