package dfe.fetcher.jdbc.clickhouse;

import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.jdbc.TimeText;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.Base64;

/**
 * How the values of one family of ClickHouse scalar types are written as JSON and read as a key,
 * from the bytes ClickHouse printed (escapes undone). The JSON follows the JDBC stores' rules
 * (docs/sources-db.md): exact numbers, the NaN and infinity strings, RFC 3339 UTC instants, base64
 * for bytes that are not text.
 */
enum ScalarKind {
  /** Int8 ... Int64, UInt8 ... UInt64: an exact JSON number, whatever its width. */
  INTEGER,
  /** Decimal(P, S), Decimal32/64/128(S): an exact JSON number, scale kept ({@code 1.50}). */
  DECIMAL,
  /** Float32: the shortest number that reads back to the same float; NaN, infinities as text. */
  FLOAT32,
  /** Float64: as Float32, for doubles. */
  FLOAT64,
  /** String, FixedString(N): text when the bytes are UTF-8, else their base64. */
  STRING,
  /** Enum8, Enum16: the value's name. */
  ENUM,
  /** UUID: its text. */
  UUID,
  /** Date: {@code YYYY-MM-DD}. */
  DATE,
  /** DateTime, DateTime('zone'): RFC 3339 in UTC to the second, read in the column's zone. */
  DATETIME,
  /** Nothing: the type of a bare NULL, which has no values. */
  NOTHING;

  private static final String ZERO_DATE = "0000-00-00";

  void write(JsonGenerator json, ValueBytes value, ClickHouseType.Scalar type)
      throws IOException, ClickHouseType.BadValueException {
    switch (this) {
      case INTEGER -> json.writeNumber(checked(value, false, type));
      case DECIMAL -> json.writeNumber(checked(value, true, type));
      case FLOAT32 -> {
        String special = special(value);
        if (special != null) {
          json.writeString(special);
        } else {
          json.writeNumber(parseFloat(value, type));
        }
      }
      case FLOAT64 -> {
        String special = special(value);
        if (special != null) {
          json.writeString(special);
        } else {
          json.writeNumber(parseDouble(value, type));
        }
      }
      case STRING, ENUM -> {
        if (value.isUtf8()) {
          json.writeUTF8String(value.data(), 0, value.length());
        } else {
          json.writeString(Base64.getEncoder().encodeToString(value.copy()));
        }
      }
      case UUID -> json.writeString(ascii(value, type));
      case DATE -> json.writeString(date(value, type));
      case DATETIME -> json.writeString(TimeText.utc(instant(value, type), 0));
      case NOTHING -> throw new ClickHouseType.BadValueException("a value of type Nothing");
    }
  }

  /** The value as a key: never NULL (the caller checked), typed so the next page binds it. */
  KeysetMark.Value key(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    return switch (this) {
      case INTEGER -> {
        String digits = checked(value, false, type);
        try {
          yield new KeysetMark.IntegerValue(Long.parseLong(digits));
        } catch (NumberFormatException beyondLong) {
          yield new KeysetMark.DecimalValue(new BigDecimal(digits)); // UInt64 above 2^63 - 1
        }
      }
      case DECIMAL -> new KeysetMark.DecimalValue(new BigDecimal(checked(value, true, type)));
      case FLOAT32, FLOAT64 -> {
        if (special(value) != null) {
          throw new ClickHouseType.BadValueException(
              "a key of type " + type.name() + " is NaN or infinite, which a tail cannot follow");
        }
        double parsed = parseDouble(value, type);
        yield new KeysetMark.DecimalValue(
            new BigDecimal(this == FLOAT32 ? Float.toString((float) parsed) : value.text()));
      }
      case STRING, ENUM ->
          value.isUtf8()
              ? new KeysetMark.StringValue(value.text())
              : new KeysetMark.BytesValue(value.copy());
      case UUID -> new KeysetMark.StringValue(ascii(value, type));
      case DATE -> new KeysetMark.StringValue(date(value, type));
      case DATETIME -> new KeysetMark.TimestampValue(instant(value, type));
      case NOTHING -> throw new ClickHouseType.BadValueException("a key of type Nothing");
    };
  }

  /** The digits of an integer or decimal, checked to be one (so nothing else lands as a number). */
  private static String checked(ValueBytes value, boolean fraction, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    byte[] data = value.data();
    int length = value.length();
    int i = length > 0 && data[0] == '-' ? 1 : 0;
    int digits = 0;
    boolean point = false;
    for (; i < length; i++) {
      byte b = data[i];
      if (b >= '0' && b <= '9') {
        digits++;
      } else if (fraction && b == '.' && !point && digits > 0) {
        point = true;
      } else {
        throw new ClickHouseType.BadValueException(
            "a value of type " + type.name() + " is no number");
      }
    }
    if (digits == 0 || data[length - 1] == '.') {
      throw new ClickHouseType.BadValueException(
          "a value of type " + type.name() + " is no number");
    }
    return value.text();
  }

  /** The JSON string for NaN or an infinity as ClickHouse prints them; null for a number. */
  private static String special(ValueBytes value) {
    String text = value.length() <= 4 ? value.text() : "";
    return switch (text) {
      case "nan", "-nan", "+nan" -> "NaN";
      case "inf", "+inf" -> "Infinity";
      case "-inf" -> "-Infinity";
      default -> null;
    };
  }

  private static float parseFloat(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    try {
      return Float.parseFloat(ascii(value, type));
    } catch (NumberFormatException e) {
      throw new ClickHouseType.BadValueException(
          "a value of type " + type.name() + " is no number");
    }
  }

  private static double parseDouble(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    try {
      return Double.parseDouble(ascii(value, type));
    } catch (NumberFormatException e) {
      throw new ClickHouseType.BadValueException(
          "a value of type " + type.name() + " is no number");
    }
  }

  private static String ascii(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    byte[] data = value.data();
    for (int i = 0; i < value.length(); i++) {
      if (data[i] < 0x20 || data[i] > 0x7E) {
        throw new ClickHouseType.BadValueException(
            "a value of type " + type.name() + " holds a byte it cannot have");
      }
    }
    return value.text();
  }

  /**
   * A Date as printed; ClickHouse prints its day 0 (1970-01-01, the type's smallest value) as
   * {@code 0000-00-00}, which is that date, so it lands as 1970-01-01.
   */
  private static String date(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    String text = ascii(value, type);
    if (text.equals(ZERO_DATE)) {
      return "1970-01-01";
    }
    if (text.length() != 10 || text.charAt(4) != '-' || text.charAt(7) != '-') {
      throw new ClickHouseType.BadValueException("a value of type " + type.name() + " is no date");
    }
    return text;
  }

  /**
   * A DateTime's instant: ClickHouse prints the wall time in the column's zone (the server's when
   * the column names none), {@code YYYY-MM-DD hh:mm:ss}; second 0 of the epoch as {@code 0000-00-00
   * 00:00:00}. In the hour a zone repeats when its clocks go back, the wall time names two instants
   * and the earlier is taken (docs/sources-db.md says so and how to avoid it).
   */
  private static Instant instant(ValueBytes value, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    byte[] d = value.data();
    if (value.length() != 19 || d[4] != '-' || d[7] != '-' || d[10] != ' ' || d[13] != ':') {
      throw new ClickHouseType.BadValueException("a value of type " + type.name() + " is no time");
    }
    int year = number(d, 0, 4, type);
    if (year == 0) {
      return Instant.EPOCH;
    }
    try {
      LocalDateTime wall =
          LocalDateTime.of(
              year,
              number(d, 5, 2, type),
              number(d, 8, 2, type),
              number(d, 11, 2, type),
              number(d, 14, 2, type),
              number(d, 17, 2, type));
      return ZonedDateTime.ofLocal(wall, type.zone(), null).toInstant();
    } catch (DateTimeException e) {
      throw new ClickHouseType.BadValueException("a value of type " + type.name() + " is no time");
    }
  }

  private static int number(byte[] d, int from, int digits, ClickHouseType.Scalar type)
      throws ClickHouseType.BadValueException {
    int n = 0;
    for (int i = from; i < from + digits; i++) {
      if (d[i] < '0' || d[i] > '9') {
        throw new ClickHouseType.BadValueException(
            "a value of type " + type.name() + " is no time");
      }
      n = n * 10 + (d[i] - '0');
    }
    return n;
  }
}
