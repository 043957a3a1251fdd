package dfe.fetcher.jdbc;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;

/**
 * Times and instants as a database dump writes them, by hand and without a pattern: a time of day
 * with at least the column's fractional digits and all the value has, and an instant in RFC 3339
 * UTC. On the hot path of every dump of a table with time columns.
 */
public final class TimeText {

  private TimeText() {}

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
  public static String utc(Instant instant, int scale) {
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
