package dfe.fetcher.core.row;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * A database tail's position: the key tuple of the last row acknowledged, in key column order. The
 * next read asks for rows whose key is greater, binding these values (never splicing them into
 * SQL), so each value keeps its source type and precision: an exact integer or decimal, a string, a
 * timestamp to the microsecond or nanosecond the column holds, raw bytes.
 *
 * @param values one per key column; at least one
 */
public record KeysetMark(List<Value> values) implements Mark {

  public KeysetMark {
    values = List.copyOf(values);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("a keyset mark needs at least one key value");
    }
  }

  public static KeysetMark of(Value... values) {
    return new KeysetMark(List.of(values));
  }

  @Override
  public Kind kind() {
    return Kind.KEYSET;
  }

  /**
   * One typed key value. {@link #typeName} and {@link #text} are its written form in a cursor: the
   * type, and the value as exact text (decimal digits, ISO-8601, base64).
   */
  public sealed interface Value {
    String typeName();

    String text();
  }

  /** An integer column (any width up to 64 bits). */
  public record IntegerValue(long value) implements Value {
    @Override
    public String typeName() {
      return "integer";
    }

    @Override
    public String text() {
      return Long.toString(value);
    }
  }

  /** An exact decimal (NUMERIC, DECIMAL, or an integer wider than 64 bits), scale kept. */
  public record DecimalValue(BigDecimal value) implements Value {
    @Override
    public String typeName() {
      return "decimal";
    }

    @Override
    public String text() {
      return value.toString();
    }

    public DecimalValue {
      Objects.requireNonNull(value, "value");
    }
  }

  /** A character column. */
  public record StringValue(String value) implements Value {
    @Override
    public String typeName() {
      return "string";
    }

    @Override
    public String text() {
      return value;
    }

    public StringValue {
      Objects.requireNonNull(value, "value");
    }
  }

  /** A timestamp with a time zone, as the instant it names, at the column's precision. */
  public record TimestampValue(Instant value) implements Value {
    @Override
    public String typeName() {
      return "timestamp";
    }

    @Override
    public String text() {
      return value.toString();
    }

    public TimestampValue {
      Objects.requireNonNull(value, "value");
    }
  }

  /** A timestamp without a time zone, as the wall-clock value the column holds. */
  public record LocalTimestampValue(LocalDateTime value) implements Value {
    @Override
    public String typeName() {
      return "local_timestamp";
    }

    @Override
    public String text() {
      return value.toString();
    }

    public LocalTimestampValue {
      Objects.requireNonNull(value, "value");
    }
  }

  /** A binary column; compared and printed by content. */
  public record BytesValue(byte[] value) implements Value {
    @Override
    public String typeName() {
      return "bytes";
    }

    @Override
    public String text() {
      return Base64.getEncoder().encodeToString(value);
    }

    public BytesValue {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof BytesValue that && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "BytesValue[" + Base64.getEncoder().encodeToString(value) + "]";
    }
  }
}
