package dfe.fetcher.rest.profile;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as an operator writes them: {@code 90s}, {@code 15m}, {@code 1h}, {@code 7d}. */
public final class DurationText {

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  private DurationText() {}

  static Optional<Duration> parse(String text) {
    Matcher matcher = DURATION.matcher(text.trim());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    long amount = Long.parseLong(matcher.group(1));
    return Optional.of(
        switch (matcher.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        });
  }

  public static String format(Duration duration) {
    if (duration.toMillis() % 1000 != 0) {
      return duration.toMillis() + "ms";
    }
    long secs = duration.toSeconds();
    if (secs % 86_400 == 0 && secs > 0) {
      return secs / 86_400 + "d";
    }
    if (secs % 3_600 == 0 && secs > 0) {
      return secs / 3_600 + "h";
    }
    if (secs % 60 == 0 && secs > 0) {
      return secs / 60 + "m";
    }
    return secs + "s";
  }
}
