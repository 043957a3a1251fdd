package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.KeysetMark;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A key value written into a page's SQL as a typed literal: ClickHouse 18.16 has no query
 * parameters, so the value is rendered, never spliced. Every value is cast to its column's type as
 * the server named it ({@code CAST('...' AS Decimal(18, 4))}), its text escaped byte by byte: only
 * printable ASCII other than the quote and the backslash stands as itself, every other byte is a
 * {@code \xNN} escape, so no value can end the literal. A DateTime is its epoch second ({@code
 * toDateTime(1710037800)}), which compares as the instant whatever the column's zone.
 */
final class KeyLiteral {

  private KeyLiteral() {}

  /**
   * The literal for {@code value} in a column of {@code type}; empty when the value is not of a
   * kind that column holds (a checkpoint of a tail whose key changed type).
   */
  static Optional<String> of(KeysetMark.Value value, ClickHouseType.Scalar type) {
    return switch (type.kind()) {
      case INTEGER -> number(value, true).map(text -> cast(text, type));
      case DECIMAL, FLOAT32, FLOAT64 -> number(value, false).map(text -> cast(text, type));
      case STRING, ENUM -> {
        if (value instanceof KeysetMark.StringValue string) {
          yield Optional.of(cast(string.value().getBytes(StandardCharsets.UTF_8), type));
        }
        if (value instanceof KeysetMark.BytesValue bytes) {
          yield Optional.of(cast(bytes.value(), type));
        }
        yield Optional.empty();
      }
      case UUID, DATE ->
          value instanceof KeysetMark.StringValue string
              ? Optional.of(cast(string.value(), type))
              : Optional.empty();
      case DATETIME ->
          value instanceof KeysetMark.TimestampValue at && at.value().getNano() == 0
              ? Optional.of("toDateTime(" + at.value().getEpochSecond() + ")")
              : Optional.empty();
      case NOTHING -> Optional.empty();
    };
  }

  private static Optional<String> number(KeysetMark.Value value, boolean integral) {
    if (value instanceof KeysetMark.IntegerValue integer) {
      return Optional.of(Long.toString(integer.value()));
    }
    if (value instanceof KeysetMark.DecimalValue decimal) {
      BigDecimal number = decimal.value();
      if (integral) {
        try {
          return Optional.of(number.toBigIntegerExact().toString());
        } catch (ArithmeticException notIntegral) {
          return Optional.empty();
        }
      }
      return Optional.of(number.toPlainString());
    }
    return Optional.empty();
  }

  private static String cast(String text, ClickHouseType.Scalar type) {
    return cast(text.getBytes(StandardCharsets.UTF_8), type);
  }

  private static String cast(byte[] bytes, ClickHouseType.Scalar type) {
    return "CAST(" + quoted(bytes) + " AS " + type.name() + ")";
  }

  /** {@code bytes} as a ClickHouse string literal that holds exactly them. */
  static String quoted(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length + 2).append('\'');
    for (byte b : bytes) {
      int unsigned = b & 0xFF;
      if (unsigned >= 0x20 && unsigned < 0x7F && b != '\'' && b != '\\') {
        out.append((char) unsigned);
      } else {
        out.append("\\x")
            .append(Character.forDigit(unsigned >> 4, 16))
            .append(Character.forDigit(unsigned & 0xF, 16));
      }
    }
    return out.append('\'').toString();
  }

  /** A column name as a ClickHouse identifier: in backquotes, a backquote or backslash escaped. */
  static String identifier(String name) {
    StringBuilder out = new StringBuilder(name.length() + 2).append('`');
    for (char c : name.toCharArray()) {
      if (c == '`' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.append('`').toString();
  }
}
