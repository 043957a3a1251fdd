package dfe.fetcher.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * Reads timestamp columns so that the JVM's default zone takes no part. Most drivers build {@code
 * LocalDateTime} and {@code OffsetDateTime} straight from the wire; MariaDB's goes through a {@code
 * java.sql.Timestamp} in the JVM's zone, so a wall time in a DST gap (02:30 on the night the clocks
 * jump) comes back an hour off (its {@code getString} too). For MySQL/MariaDB the value is
 * therefore built in a UTC calendar, which has no gaps: a {@code DATETIME} as written, a {@code
 * TIMESTAMP} in the session's zone, which {@link OpenDatabase} sets to UTC. The driver's calendar
 * is lenient: it turns a zero day ({@code 2024-02-00}, which MariaDB stores without {@code
 * NO_ZERO_IN_DATE}) into the day before; a zero date, or one with a zero month or day, is no date
 * and reads as null (the driver reads {@code 0000-00-00} as null itself).
 */
final class Timestamps {

  private static final TimeZone UTC_ZONE = TimeZone.getTimeZone("UTC");

  private Timestamps() {}

  /** A timestamp without a zone as the wall time the column holds; null for NULL. */
  static LocalDateTime wall(ResultSet rows, int index, Dialect dialect) throws SQLException {
    if (dialect == Dialect.MYSQL) {
      // Built in a UTC calendar, which has no gaps, and read back in UTC: the wall time unchanged.
      Timestamp value = rows.getTimestamp(index, Calendar.getInstance(UTC_ZONE));
      if (value == null) {
        return null; // NULL, or the zero date 0000-00-00
      }
      LocalDateTime wall = LocalDateTime.ofInstant(value.toInstant(), ZoneOffset.UTC);
      // The driver's lenient calendar makes a zero day the month's last day before it and a zero
      // month the December before: only such a value needs its text checked.
      if ((wall.getMonthValue() == 12 || wall.getDayOfMonth() == wall.toLocalDate().lengthOfMonth())
          && hasZeroMonthOrDay(rows.getString(index))) {
        return null;
      }
      return wall;
    }
    return rows.getObject(index, LocalDateTime.class);
  }

  /** Whether MariaDB's text for a date ({@code 2024-02-00 ...}) has a zero month or day. */
  private static boolean hasZeroMonthOrDay(String text) {
    return text != null
        && text.length() >= 10
        && (text.startsWith("00", 5) || text.startsWith("00", 8));
  }

  /** A timestamp with a zone (a MySQL {@code TIMESTAMP}) as the instant it names; null for NULL. */
  static Instant instant(ResultSet rows, int index, Dialect dialect) throws SQLException {
    if (dialect == Dialect.MYSQL) {
      LocalDateTime utc = wall(rows, index, dialect);
      return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }
    OffsetDateTime value = rows.getObject(index, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
