package dfe.fetcher.core.envelope;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The envelope's timestamp form: RFC 3339, UTC, exactly three fractional digits and {@code Z}. */
public final class SnapshotTime {

  private static final DateTimeFormatter RFC3339_MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private SnapshotTime() {}

  /** {@code instant}, truncated to the millisecond, e.g. {@code 2026-05-01T12:00:00.123Z}. */
  public static String format(Instant instant) {
    return RFC3339_MILLIS.format(instant.truncatedTo(ChronoUnit.MILLIS));
  }
}
