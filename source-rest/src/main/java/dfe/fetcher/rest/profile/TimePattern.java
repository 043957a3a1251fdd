package dfe.fetcher.rest.profile;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Optional;

/**
 * A strftime-like pattern for {@code format_time}: {@code %} directives replaced by fields of a
 * time in a named zone (UTC unless one is named), everything else copied. Names of months and days
 * are English whatever the JVM's locale, and the JVM's zone is never read.
 *
 * <table>
 *   <caption>Directives</caption>
 *   <tr><td>{@code %Y}</td><td>year, at least 4 digits</td></tr>
 *   <tr><td>{@code %y}</td><td>year in the century, 2 digits</td></tr>
 *   <tr><td>{@code %m}, {@code %d}</td><td>month, day of month, 2 digits</td></tr>
 *   <tr><td>{@code %e}</td><td>day of month, space-padded to 2</td></tr>
 *   <tr><td>{@code %j}</td><td>day of year, 3 digits</td></tr>
 *   <tr><td>{@code %H}, {@code %I}, {@code %p}</td><td>hour (00-23), hour (01-12), AM or PM</td></tr>
 *   <tr><td>{@code %M}, {@code %S}</td><td>minute, second, 2 digits</td></tr>
 *   <tr><td>{@code %L}, {@code %f}, {@code %N}</td><td>milli-, micro-, nanoseconds, 3, 6, 9
 *   digits</td></tr>
 *   <tr><td>{@code %z}, {@code %Z}</td><td>offset {@code +hhmm}, the zone's id</td></tr>
 *   <tr><td>{@code %a}, {@code %A}, {@code %b}, {@code %B}</td><td>day and month names, short
 *   and full</td></tr>
 *   <tr><td>{@code %u}</td><td>day of week, 1 (Monday) to 7</td></tr>
 *   <tr><td>{@code %s}</td><td>seconds since the epoch</td></tr>
 *   <tr><td>{@code %F}, {@code %T}</td><td>{@code %Y-%m-%d}, {@code %H:%M:%S}</td></tr>
 *   <tr><td>{@code %%}</td><td>a {@code %}</td></tr>
 * </table>
 */
final class TimePattern {

  static final String DIRECTIVES = "YymdejHIpMSLfNzZaAbBusFT%";

  private TimePattern() {}

  /** What is wrong with {@code pattern}, naming the directive and its place; empty when fine. */
  static Optional<String> problem(String pattern) {
    for (int i = 0; i < pattern.length(); i++) {
      if (pattern.charAt(i) != '%') {
        continue;
      }
      if (i + 1 == pattern.length()) {
        return Optional.of(
            "the pattern ends with a lone '%'; write %% for a '%' (character " + (i + 1) + ")");
      }
      char directive = pattern.charAt(++i);
      if (DIRECTIVES.indexOf(directive) < 0) {
        return Optional.of(
            "'%"
                + directive
                + "' (character "
                + i
                + ") is not a format_time directive; one of %"
                + String.join(", %", DIRECTIVES.split("")));
      }
    }
    return Optional.empty();
  }

  /**
   * {@code instant} written by {@code pattern} in {@code zone}.
   *
   * @throws IllegalArgumentException when the pattern has a directive that is not one, as {@link
   *     #problem} says
   */
  static String format(Instant instant, String pattern, ZoneId zone) {
    Optional<String> problem = problem(pattern);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(problem.get());
    }
    ZonedDateTime time = instant.atZone(zone);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      append(out, pattern.charAt(++i), time);
    }
    return out.toString();
  }

  private static void append(StringBuilder out, char directive, ZonedDateTime time) {
    switch (directive) {
      case 'Y' -> out.append(pad(time.getYear(), 4));
      case 'y' -> out.append(pad(Math.floorMod(time.getYear(), 100), 2));
      case 'm' -> out.append(pad(time.getMonthValue(), 2));
      case 'd' -> out.append(pad(time.getDayOfMonth(), 2));
      case 'e' -> out.append(time.getDayOfMonth() < 10 ? " " : "").append(time.getDayOfMonth());
      case 'j' -> out.append(pad(time.getDayOfYear(), 3));
      case 'H' -> out.append(pad(time.getHour(), 2));
      case 'I' -> out.append(pad(time.getHour() % 12 == 0 ? 12 : time.getHour() % 12, 2));
      case 'p' -> out.append(time.getHour() < 12 ? "AM" : "PM");
      case 'M' -> out.append(pad(time.getMinute(), 2));
      case 'S' -> out.append(pad(time.getSecond(), 2));
      case 'L' -> out.append(pad(time.getNano() / 1_000_000, 3));
      case 'f' -> out.append(pad(time.getNano() / 1_000, 6));
      case 'N' -> out.append(pad(time.getNano(), 9));
      case 'z' -> out.append(offset(time.getOffset().getTotalSeconds()));
      case 'Z' -> out.append(time.getZone().getId());
      case 'a' -> out.append(time.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
      case 'A' -> out.append(time.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
      case 'b' -> out.append(time.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
      case 'B' -> out.append(time.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
      case 'u' -> out.append(time.getDayOfWeek().getValue());
      case 's' -> out.append(time.toEpochSecond());
      case 'F' -> {
        append(out, 'Y', time);
        out.append('-');
        append(out, 'm', time);
        out.append('-');
        append(out, 'd', time);
      }
      case 'T' -> {
        append(out, 'H', time);
        out.append(':');
        append(out, 'M', time);
        out.append(':');
        append(out, 'S', time);
      }
      case '%' -> out.append('%');
      default -> throw new IllegalArgumentException("'%" + directive + "' is not a directive");
    }
  }

  private static String pad(int value, int digits) {
    String text = Integer.toString(Math.abs(value));
    StringBuilder padded = new StringBuilder(value < 0 ? "-" : "");
    padded.append("0".repeat(Math.max(0, digits - text.length()))).append(text);
    return padded.toString();
  }

  private static String offset(int totalSeconds) {
    int minutes = Math.abs(totalSeconds) / 60;
    return (totalSeconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + pad(minutes % 60, 2);
  }
}
