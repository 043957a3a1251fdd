package dfe.fetcher.jdbc;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * An array written from the Java objects a driver built for its elements, for a driver without an
 * array result set. Never an object's {@code toString}: an element type this does not know is an
 * error naming it.
 */
final class JavaArrayElements {

  private JavaArrayElements() {}

  /** {@code elements} by their Java type; nested arrays nest. */
  static void write(JsonGenerator json, Object[] elements) throws SQLException, IOException {
    json.writeStartArray();
    for (Object element : elements) {
      if (element == null) {
        json.writeNull();
      } else if (element instanceof Object[] nested) {
        write(json, nested);
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
        json.writeString(local.toLocalDate() + "T" + TimeText.time(local.toLocalTime(), 0));
      } else if (element instanceof Date date) {
        json.writeString(date.toLocalDate().toString());
      } else if (element instanceof String text) {
        json.writeString(text);
      } else if (element instanceof UUID uuid) {
        json.writeString(uuid.toString());
      } else {
        // Never an object's toString: a type this writer does not know is an error.
        throw new SQLException(
            "an array element of Java type "
                + element.getClass().getName()
                + " has no JSON mapping; cast the array in the query (e.g. to text[])",
            "0A000");
      }
    }
    json.writeEndArray();
  }
}
