package dfe.fetcher.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Locale;
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
 *   <li>a PostgreSQL date or timestamp that is {@code infinity} or {@code -infinity} as those
 *       words, never as a date; a MariaDB zero date as the text MariaDB prints ({@code
 *       "0000-00-00"});
 *   <li>{@code json}/{@code jsonb} nested as JSON, arrays as JSON arrays, UUIDs as strings, binary
 *       as base64, booleans as booleans, NULL as {@code null} with the key present;
 *   <li>text through {@code getString}, a CLOB through its reader, XML through {@code getSQLXML}:
 *       never a Java object's {@code toString}.
 * </ul>
 *
 * Which of these a column gets is its {@link Columns.Kind}, chosen once per query by the dialect's
 * {@link TypeMapping}; per value this class only switches on the kind.
 *
 * <p>Values are read through {@code java.time} types, so the JVM's default time zone changes none
 * of them. Not thread-safe: one per read.
 */
final class RecordWriter {

  /** No separator between root values: one generator writes every row, each on its own. */
  private static final JsonFactory JSON =
      new JsonFactoryBuilder().rootValueSeparator((String) null).build();

  private static final String INFINITY = "infinity";
  private static final String MINUS_INFINITY = "-infinity";

  private final Columns columns;
  private final Optional<ZoneId> zone;
  private final Dialect dialect;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
  private final Map<String, Columns.Column> arrayElements = new HashMap<>();

  /** Whether the dialect maps an array's base type, by its name, to {@link Columns.Kind#TEXT}. */
  private final Map<String, Boolean> textBaseTypes = new HashMap<>();

  /**
   * The generator every row is written with, made once: making and closing one a row took a tenth
   * of a PostgreSQL dump's tick thread (docs/benchmarks.md). Null again after a row that failed
   * half way, whose generator stands inside that row.
   */
  private JsonGenerator generator;

  RecordWriter(Columns columns, Optional<ZoneId> zone, Dialect dialect) {
    this.columns = columns;
    this.zone = zone;
    this.dialect = dialect;
  }

  /** The current row of {@code rows} as JSON. */
  RawRecord write(ResultSet rows) throws SQLException {
    buffer.reset();
    boolean written = false;
    try {
      JsonGenerator json = generator();
      json.writeStartObject();
      int index = 1;
      for (Columns.Column column : columns.all()) {
        json.writeFieldName(column.label());
        writeValue(json, rows, index++, column);
      }
      json.writeEndObject();
      json.flush();
      written = true;
    } catch (IOException e) {
      throw new UncheckedIOException("writing a record in memory failed", e);
    } finally {
      if (!written) {
        generator = null;
      }
    }
    return RawRecord.of(buffer.toByteArray());
  }

  private JsonGenerator generator() throws IOException {
    if (generator == null) {
      generator = JSON.createGenerator(buffer);
      generator.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    }
    return generator;
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
          writeDecimal(json, rows.getString(index));
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
      case DATE_OR_INFINITY -> {
        LocalDate value = rows.getObject(index, LocalDate.class);
        if (value == null) {
          json.writeNull();
        } else if (value.equals(LocalDate.MAX)) {
          json.writeString(INFINITY);
        } else if (value.equals(LocalDate.MIN)) {
          json.writeString(MINUS_INFINITY);
        } else {
          json.writeString(value.toString());
        }
      }
      case DATE_OR_ZERO -> {
        LocalDate value;
        try {
          value = rows.getObject(index, LocalDate.class);
        } catch (DateTimeException zeroPart) {
          value = null; // a zero month or day: read as text below
        }
        if (value == null) {
          writeZeroDateOrNull(json, rows, index);
        } else {
          json.writeString(value.toString());
        }
      }
      case TIME -> {
        LocalTime value = rows.getObject(index, LocalTime.class);
        writeText(json, value == null ? null : TimeText.time(value, column.scale()));
      }
      case TIME_WITH_ZONE -> {
        OffsetTime value = rows.getObject(index, OffsetTime.class);
        writeText(
            json,
            value == null
                ? null
                : TimeText.time(value.toLocalTime(), column.scale()) + value.getOffset().getId());
      }
      // MariaDB prints a TIME as the duration it is, with the column's fractional digits.
      case DURATION, BIT_STRING, TEXT -> writeText(json, rows.getString(index));
      case YEAR -> {
        int value = rows.getInt(index);
        if (rows.wasNull()) {
          json.writeNull();
        } else {
          json.writeNumber(value);
        }
      }
      case TIMESTAMP -> writeWallTime(json, Timestamps.wall(rows, index, dialect), column);
      case TIMESTAMP_OR_INFINITY -> {
        LocalDateTime value = Timestamps.wall(rows, index, dialect);
        if (LocalDateTime.MAX.equals(value)) {
          json.writeString(INFINITY);
        } else if (LocalDateTime.MIN.equals(value)) {
          json.writeString(MINUS_INFINITY);
        } else {
          writeWallTime(json, value, column);
        }
      }
      case TIMESTAMP_OR_ZERO -> {
        LocalDateTime value = Timestamps.wall(rows, index, dialect);
        if (value == null) {
          writeZeroDateOrNull(json, rows, index);
        } else {
          writeWallTime(json, value, column);
        }
      }
      case TIMESTAMP_WITH_ZONE -> {
        Instant value = Timestamps.instant(rows, index, dialect);
        writeText(json, value == null ? null : TimeText.utc(value, column.scale()));
      }
      case TIMESTAMP_WITH_ZONE_OR_INFINITY -> {
        // Read as an offset date-time: pgjdbc builds its MAX/MIN for the infinities, which no
        // Instant can hold.
        OffsetDateTime value = rows.getObject(index, OffsetDateTime.class);
        if (value == null) {
          json.writeNull();
        } else if (value.equals(OffsetDateTime.MAX)) {
          json.writeString(INFINITY);
        } else if (value.equals(OffsetDateTime.MIN)) {
          json.writeString(MINUS_INFINITY);
        } else {
          json.writeString(TimeText.utc(value.toInstant(), column.scale()));
        }
      }
      case TIMESTAMP_WITH_ZONE_OR_ZERO -> {
        Instant value = Timestamps.instant(rows, index, dialect);
        if (value == null) {
          writeZeroDateOrNull(json, rows, index);
        } else {
          json.writeString(TimeText.utc(value, column.scale()));
        }
      }
      case MONEY -> {
        String text = rows.getString(index);
        if (text == null) {
          json.writeNull();
        } else {
          try {
            json.writeNumber(MoneyText.parse(text));
          } catch (NumberFormatException e) {
            throw new SQLException(
                "column \"" + column.label() + "\": " + e.getMessage() + " (see lc_monetary)",
                "22018",
                e);
          }
        }
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
            writeArray(json, value, column.label());
          } finally {
            value.free();
          }
        }
      }
      case CLOB -> {
        Clob value = rows.getClob(index);
        if (value == null) {
          json.writeNull();
        } else {
          try (Reader text = value.getCharacterStream()) {
            json.writeString(text, -1);
          } finally {
            value.free();
          }
        }
      }
      case XML -> {
        SQLXML value = rows.getSQLXML(index);
        if (value == null) {
          json.writeNull();
        } else {
          try {
            writeText(json, value.getString());
          } finally {
            value.free();
          }
        }
      }
    }
  }

  /** A wall time as written, or placed in the store's zone and written in UTC. */
  private void writeWallTime(JsonGenerator json, LocalDateTime value, Columns.Column column)
      throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (zone.isPresent()) {
      json.writeString(TimeText.utc(value.atZone(zone.get()).toInstant(), column.scale()));
    } else {
      json.writeString(
          value.toLocalDate() + "T" + TimeText.time(value.toLocalTime(), column.scale()));
    }
  }

  /**
   * A MariaDB date the driver could not read as one: NULL, or a zero date ({@code 0000-00-00},
   * which a {@code sql_mode} without {@code NO_ZERO_DATE} allows; {@code 2024-00-10} without {@code
   * NO_ZERO_IN_DATE}). A zero date is no date to land and not NULL either: it lands as the text
   * MariaDB prints for it, never as an invented date or a null.
   */
  private static void writeZeroDateOrNull(JsonGenerator json, ResultSet rows, int index)
      throws SQLException, IOException {
    writeText(json, rows.getString(index));
  }

  /** Whether {@code array}'s elements are text by the dialect's mapping of its base type. */
  private boolean holdsText(Array array) throws SQLException {
    String name;
    int type;
    try {
      name = array.getBaseTypeName();
      type = array.getBaseType();
    } catch (SQLFeatureNotSupportedException e) {
      return false;
    }
    if (name == null) {
      return false;
    }
    // The name as a column's type reaches the mapping (Columns): in lower case.
    name = name.toLowerCase(Locale.ROOT);
    Boolean text = textBaseTypes.get(name);
    if (text == null) {
      text =
          dialect
              .typeMapping()
              .kindOf(new TypeMapping.ColumnType(type, name, 0))
              .filter(kind -> kind == Columns.Kind.TEXT)
              .isPresent();
      textBaseTypes.put(name, text);
    }
    return text;
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
  private void writeArray(JsonGenerator json, Array array, String label)
      throws SQLException, IOException {
    // Text elements, one dimension: the driver's decoded strings, as getString gives each one in
    // the general path below, without a result set made for every value (a tenth of a PostgreSQL
    // dump's tick thread with one text[] column). Any other array, a nested one included (its
    // elements are arrays, not strings), takes the general path.
    if (holdsText(array) && array.getArray() instanceof String[] texts) {
      json.writeStartArray();
      for (String text : texts) {
        writeText(json, text);
      }
      json.writeEndArray();
      return;
    }
    ResultSet elements;
    try {
      elements = array.getResultSet();
    } catch (SQLFeatureNotSupportedException e) {
      JavaArrayElements.write(json, (Object[]) array.getArray());
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
        } catch (Columns.UnmappedTypeException e) {
          throw new SQLException(
              "the elements of array column \"" + label + "\": " + e.getMessage(), "0A000", e);
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
}
