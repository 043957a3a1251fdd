package dfe.fetcher.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the current row of a result set as one JSON object, keyed by the column labels in column
 * order, losslessly:
 *
 * <ul>
 *   <li>integers and decimals as exact JSON numbers, never through a double (a NUMERIC of any
 *       precision keeps its digits and scale: {@code 1.50} stays {@code 1.50});
 *   <li>floating point columns as the shortest decimal that reads back to the same value; NaN and
 *       the infinities, which JSON has no number for, as the strings {@code "NaN"}, {@code
 *       "Infinity"}, {@code "-Infinity"} (a NUMERIC NaN likewise);
 *   <li>a timestamp with a zone as RFC 3339 in UTC ({@code Z}); a timestamp without one as written,
 *       without an offset, unless the store names a {@code zone}, which places it and makes it UTC;
 *       both with at least the column's declared fractional digits and never fewer than the value
 *       needs, so microseconds stay microseconds; dates {@code YYYY-MM-DD}, times {@code HH:MM:SS};
 *   <li>{@code json}/{@code jsonb} nested as JSON, arrays as JSON arrays, UUIDs as strings, binary
 *       as base64, booleans as booleans, NULL as {@code null} with the key present.
 * </ul>
 *
 * Values are read through {@code java.time} types, so the JVM's default time zone changes none of
 * them. Not thread-safe: one per read.
 */
final class RecordWriter {

  private static final JsonFactory JSON = new JsonFactory();

  private final Columns columns;
  private final Optional<ZoneId> zone;
  private final Dialect dialect;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
  private final Map<String, Columns.Column> arrayElements = new HashMap<>();

  RecordWriter(Columns columns, Optional<ZoneId> zone, Dialect dialect) {
    this.columns = columns;
    this.zone = zone;
    this.dialect = dialect;
  }

  /** The current row of {@code rows} as JSON. */
  RawRecord write(ResultSet rows) throws SQLException {
    buffer.reset();
    try (JsonGenerator json = JSON.createGenerator(buffer)) {
      json.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
      json.writeStartObject();
      int index = 1;
      for (Columns.Column column : columns.all()) {
        json.writeFieldName(column.label());
        writeValue(json, rows, index++, column);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing a record in memory failed", e);
    }
    return RawRecord.of(buffer.toByteArray());
  }

  private void writeValue(JsonGenerator json, ResultSet rows, int index, Columns.Column column)
      throws SQLException, IOException {
    switch (column.kind()) {
      case BOOLEAN -> {
        boolean value = rows.getBoolean(index);
        if (rows.wasNull()) {
          json.writeNull();
        } else {
          json.writeBoolean(value);
        }
      }
      case INTEGER -> {
        Object value = rows.getObject(index);
        if (value == null) {
          json.writeNull();
        } else if (value instanceof BigInteger big) {
          json.writeNumber(big);
        } else if (value instanceof BigDecimal decimal) {
          json.writeNumber(decimal);
        } else if (value instanceof Number number) {
          json.writeNumber(number.longValue());
        } else if (value instanceof Boolean bool) {
          json.writeBoolean(bool);
        } else {
          json.writeNumber(new BigDecimal(value.toString()));
        }
      }
      case DECIMAL -> writeDecimal(json, rows.getString(index));
      case FLOAT -> {
        float value = rows.getFloat(index);
        if (rows.wasNull()) {
          json.writeNull();
        } else if (Float.isNaN(value) || Float.isInfinite(value)) {
          json.writeString(Float.toString(value));
        } else {
          json.writeNumber(value);
        }
      }
      case DOUBLE -> {
        double value = rows.getDouble(index);
        if (rows.wasNull()) {
          json.writeNull();
        } else if (Double.isNaN(value) || Double.isInfinite(value)) {
          json.writeString(Double.toString(value));
        } else {
          json.writeNumber(value);
        }
      }
      case DATE -> {
        LocalDate value = rows.getObject(index, LocalDate.class);
        writeText(json, value == null ? null : value.toString());
      }
      case TIME -> {
        LocalTime value = rows.getObject(index, LocalTime.class);
        writeText(json, value == null ? null : time(value, column.scale()));
      }
      case TIMESTAMP -> {
        LocalDateTime value = Timestamps.wall(rows, index, dialect);
        if (value == null) {
          json.writeNull();
        } else if (zone.isPresent()) {
          json.writeString(utc(value.atZone(zone.get()).toInstant(), column.scale()));
        } else {
          json.writeString(value.toLocalDate() + "T" + time(value.toLocalTime(), column.scale()));
        }
      }
      case TIMESTAMP_WITH_ZONE -> {
        Instant value = Timestamps.instant(rows, index, dialect);
        writeText(json, value == null ? null : utc(value, column.scale()));
      }
      case BITS -> {
        byte[] value = rows.getBytes(index);
        if (value == null) {
          json.writeNull();
        } else {
          json.writeNumber(new BigInteger(1, value));
        }
      }
      case BINARY -> {
        byte[] value = rows.getBytes(index);
        if (value == null) {
          json.writeNull();
        } else {
          json.writeBinary(value);
        }
      }
      case JSON -> {
        String value = rows.getString(index);
        if (value == null) {
          json.writeNull();
        } else {
          json.writeRawValue(value);
        }
      }
      case ARRAY -> {
        Array value = rows.getArray(index);
        if (value == null) {
          json.writeNull();
        } else {
          try {
            writeArray(json, value);
          } finally {
            value.free();
          }
        }
      }
      case TEXT, UUID, OTHER -> {
        Object value = rows.getObject(index);
        writeText(json, value == null ? null : value.toString());
      }
    }
  }

  private static void writeText(JsonGenerator json, String text) throws IOException {
    if (text == null) {
      json.writeNull();
    } else {
      json.writeString(text);
    }
  }

  private static void writeDecimal(JsonGenerator json, String text) throws IOException {
    if (text == null) {
      json.writeNull();
      return;
    }
    switch (text) {
      case "NaN", "Infinity", "-Infinity" -> json.writeString(text);
      default -> json.writeNumber(new BigDecimal(text.trim()));
    }
  }

  /**
   * An array's elements, each read through the array's own result set with the element type's
   * mapping, as a column of that type would be: a driver that builds {@code Object[]} elements
   * makes timestamps in the JVM's zone (a wall time in a DST gap, such as 02:30 on the night the
   * clocks jump, comes back an hour off). Nested arrays nest. A driver without an array result set
   * falls back to the elements' Java types.
   */
  private void writeArray(JsonGenerator json, Array array) throws SQLException, IOException {
    ResultSet elements;
    try {
      elements = array.getResultSet();
    } catch (SQLFeatureNotSupportedException e) {
      writeArray(json, (Object[]) array.getArray());
      return;
    }
    try (elements) {
      // The element column is the same for every array whose elements have one type (an element
      // of a two-dimensional value is an array type of its own): worked out once per type.
      String baseType;
      try {
        baseType = elements.getMetaData().getColumnTypeName(2);
      } catch (SQLException e) {
        baseType = null; // no name to cache by: worked out for this value alone
      }
      Columns.Column element = baseType == null ? null : arrayElements.get(baseType);
      if (element == null) {
        try {
          // An element has no declared precision of its own: as many digits as its value needs.
          Columns.Column declared = Columns.of(elements.getMetaData(), dialect).all().get(1);
          element = new Columns.Column(declared.label(), declared.kind(), 0);
        } catch (Columns.DuplicateLabelException e) {
          throw new IllegalStateException("an array's result set has one index and one value", e);
        }
        if (baseType != null) {
          arrayElements.put(baseType, element);
        }
      }
      json.writeStartArray();
      while (elements.next()) {
        writeValue(json, elements, 2, element);
      }
      json.writeEndArray();
    }
  }

  /** An array's elements by their Java type; nested arrays nest. */
  private void writeArray(JsonGenerator json, Object[] elements) throws IOException {
    json.writeStartArray();
    for (Object element : elements) {
      if (element == null) {
        json.writeNull();
      } else if (element instanceof Object[] nested) {
        writeArray(json, nested);
      } else if (element instanceof Boolean bool) {
        json.writeBoolean(bool);
      } else if (element instanceof BigDecimal decimal) {
        json.writeNumber(decimal);
      } else if (element instanceof BigInteger big) {
        json.writeNumber(big);
      } else if (element instanceof Double || element instanceof Float) {
        double value = ((Number) element).doubleValue();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
          json.writeString(Double.toString(value));
        } else if (element instanceof Float f) {
          json.writeNumber(f);
        } else {
          json.writeNumber(value);
        }
      } else if (element instanceof Number number) {
        json.writeNumber(number.longValue());
      } else if (element instanceof byte[] bytes) {
        json.writeBinary(bytes);
      } else if (element instanceof Timestamp timestamp) {
        // Drivers build array timestamps in the JVM's zone; undo that to get the wall value.
        LocalDateTime local = timestamp.toLocalDateTime();
        json.writeString(local.toLocalDate() + "T" + time(local.toLocalTime(), 0));
      } else if (element instanceof Date date) {
        json.writeString(date.toLocalDate().toString());
      } else {
        json.writeString(element.toString());
      }
    }
    json.writeEndArray();
  }

  /** {@code HH:MM:SS} with at least {@code scale} fractional digits and all the value has. */
  static String time(LocalTime value, int scale) {
    // Written by hand: String.format parses its pattern with a regex on every call, which was a
    // sixth of a database dump's time in the profile (docs/benchmarks.md).
    return appendTime(new StringBuilder(18), value, scale).toString();
  }

  private static StringBuilder appendTime(StringBuilder out, LocalTime value, int scale) {
    int nanos = value.get(ChronoField.NANO_OF_SECOND);
    int digits = Math.min(9, Math.max(scale, digitsNeeded(nanos)));
    appendTwo(out, value.getHour()).append(':');
    appendTwo(out, value.getMinute()).append(':');
    appendTwo(out, value.getSecond());
    if (digits > 0) {
      char[] fraction = new char[9];
      for (int i = 8, rest = nanos; i >= 0; i--, rest /= 10) {
        fraction[i] = (char) ('0' + rest % 10);
      }
      out.append('.').append(fraction, 0, digits);
    }
    return out;
  }

  private static StringBuilder appendTwo(StringBuilder out, int value) {
    return out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }

  /** RFC 3339 in UTC with {@code Z}, fractional digits as {@link #time}. */
  static String utc(Instant instant, int scale) {
    LocalDateTime value = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    StringBuilder out = new StringBuilder(30);
    int year = value.getYear();
    if (year >= 0 && year <= 9999) {
      out.append((char) ('0' + year / 1000))
          .append((char) ('0' + year / 100 % 10))
          .append((char) ('0' + year / 10 % 10))
          .append((char) ('0' + year % 10))
          .append('-');
      appendTwo(out, value.getMonthValue()).append('-');
      appendTwo(out, value.getDayOfMonth());
    } else {
      // ISO's sign and expanded year, as DateTimeFormatter writes it.
      out.append(value.toLocalDate().format(DateTimeFormatter.ISO_LOCAL_DATE));
    }
    return appendTime(out.append('T'), value.toLocalTime(), scale).append('Z').toString();
  }

  /** 0, 3, 6 or 9: the fewest digits in groups of three that keep every nanosecond. */
  private static int digitsNeeded(int nanos) {
    if (nanos == 0) {
      return 0;
    }
    if (nanos % 1_000_000 == 0) {
      return 3;
    }
    if (nanos % 1_000 == 0) {
      return 6;
    }
    return 9;
  }
}
