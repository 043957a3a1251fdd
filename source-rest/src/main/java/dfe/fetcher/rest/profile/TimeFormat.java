package dfe.fetcher.rest.profile;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * How {@code {{ window.start }}} and {@code {{ window.end }}} are written ({@code window.format}),
 * and what the template functions of the same names write ({@code rfc3339_secs(t)}, {@code
 * epoch_millis(t)}, ...). Always in UTC unless a zone is named; the JVM's zone is never read.
 */
public enum TimeFormat implements ConfigWord {
  RFC3339_SECS("rfc3339_secs", ChronoUnit.SECONDS),
  RFC3339_MILLIS("rfc3339_millis", ChronoUnit.MILLIS),
  EPOCH_SECS("epoch_secs", ChronoUnit.SECONDS),
  EPOCH_MILLIS("epoch_millis", ChronoUnit.MILLIS);

  private static final DateTimeFormatter SECS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final DateTimeFormatter SECS_AT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");
  private static final DateTimeFormatter MILLIS_AT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");

  private final String configName;
  private final ChronoUnit precision;

  TimeFormat(String configName, ChronoUnit precision) {
    this.configName = configName;
    this.precision = precision;
  }

  @Override
  public String configName() {
    return configName;
  }

  /** {@code instant} cut to what this format can write, so a window end written is exact. */
  public Instant truncate(Instant instant) {
    return instant.truncatedTo(precision);
  }

  public String format(Instant instant) {
    Instant exact = truncate(instant);
    return switch (this) {
      case RFC3339_SECS -> SECS.format(exact);
      case RFC3339_MILLIS -> MILLIS.format(exact);
      case EPOCH_SECS -> Long.toString(exact.getEpochSecond());
      case EPOCH_MILLIS -> Long.toString(exact.toEpochMilli());
    };
  }

  /**
   * {@code instant} as this format writes it in {@code zone}: RFC 3339 with the zone's offset at
   * that instant ({@code Z} for UTC); the epoch formats have no zone and ignore it.
   */
  public String format(Instant instant, ZoneId zone) {
    Instant exact = truncate(instant);
    return switch (this) {
      case RFC3339_SECS -> SECS_AT.format(exact.atZone(zone));
      case RFC3339_MILLIS -> MILLIS_AT.format(exact.atZone(zone));
      case EPOCH_SECS, EPOCH_MILLIS -> format(exact);
    };
  }

  /**
   * A time as an API writes it in a record, read the way this format writes one: RFC 3339 text
   * (with any fraction and offset) for the {@code rfc3339_*} formats, a number of seconds or
   * milliseconds (or its digits as text) for the {@code epoch_*} ones; empty when it is not one.
   */
  public Optional<Instant> read(String text) {
    try {
      return Optional.of(
          switch (this) {
            case RFC3339_SECS, RFC3339_MILLIS -> OffsetDateTime.parse(text).toInstant();
            case EPOCH_SECS -> Instant.ofEpochSecond(Long.parseLong(text));
            case EPOCH_MILLIS -> Instant.ofEpochMilli(Long.parseLong(text));
          });
    } catch (DateTimeParseException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  public static Optional<TimeFormat> named(String name) {
    return ConfigWord.named(TimeFormat.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(TimeFormat.class);
  }
}
