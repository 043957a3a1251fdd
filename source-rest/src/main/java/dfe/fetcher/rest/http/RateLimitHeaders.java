package dfe.fetcher.rest.http;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an answer's rate-limit headers say, read against the connection's clock: {@code Retry-After}
 * (seconds, or an HTTP date), and the quota left with its reset as {@code
 * X-RateLimit-Remaining}/{@code X-RateLimit-Reset} (GitHub and many others), {@code
 * X-Rate-Limit-Remaining}/{@code X-Rate-Limit-Reset} (Okta) or {@code RateLimit-Remaining}/{@code
 * RateLimit-Reset}. A reset of at least {@value #EPOCH_FROM} is epoch seconds, a smaller one
 * seconds from now (APIs differ). A header that does not parse counts as absent.
 *
 * @param retryAfter the wait {@code Retry-After} asks for; zero for a date in the past
 * @param remaining the requests left in the current window
 * @param reset when the window resets, with the header that said so
 */
public record RateLimitHeaders(
    Optional<Duration> retryAfter, OptionalLong remaining, Optional<Reset> reset) {

  /** 2001-09-09 in epoch seconds: no API's "seconds until reset" is that long. */
  static final long EPOCH_FROM = 1_000_000_000L;

  private static final List<String> REMAINING =
      List.of("X-RateLimit-Remaining", "X-Rate-Limit-Remaining", "RateLimit-Remaining");
  private static final List<String> RESET =
      List.of("X-RateLimit-Reset", "X-Rate-Limit-Reset", "RateLimit-Reset");

  /** When the quota resets, and the header (as this class names it) that said so. */
  public record Reset(Instant at, String header) {}

  /** A wait an answer asks for, and the header that asked. */
  public record Wait(Duration duration, String header) {}

  public static RateLimitHeaders read(HttpHeaders headers, Instant now) {
    Optional<Duration> retryAfter =
        headers.firstValue("Retry-After").map(String::trim).flatMap(v -> retryAfter(v, now));
    OptionalLong remaining = OptionalLong.empty();
    for (String name : REMAINING) {
      Optional<Long> value = headers.firstValue(name).flatMap(RateLimitHeaders::count);
      if (value.isPresent()) {
        remaining = OptionalLong.of(value.get());
        break;
      }
    }
    Optional<Reset> reset = Optional.empty();
    for (String name : RESET) {
      Optional<Long> value = headers.firstValue(name).flatMap(RateLimitHeaders::count);
      if (value.isPresent()) {
        Instant at =
            value.get() >= EPOCH_FROM
                ? Instant.ofEpochSecond(value.get())
                : now.plusSeconds(value.get());
        reset = Optional.of(new Reset(at, name));
        break;
      }
    }
    return new RateLimitHeaders(retryAfter, remaining, reset);
  }

  /** Whether the answer says no request is left before the reset. */
  public boolean exhausted() {
    return remaining.isPresent() && remaining.getAsLong() == 0;
  }

  /**
   * The wait before trying again: {@code Retry-After}'s, else, when the quota is exhausted, until a
   * reset still ahead of {@code now}. Empty when neither holds (a reset already past is stale), so
   * the back-off applies.
   */
  public Optional<Wait> waitFrom(Instant now) {
    if (retryAfter.isPresent()) {
      return Optional.of(new Wait(retryAfter.get(), "Retry-After"));
    }
    if (exhausted() && reset.isPresent() && reset.get().at().isAfter(now)) {
      return Optional.of(new Wait(Duration.between(now, reset.get().at()), reset.get().header()));
    }
    return Optional.empty();
  }

  /** {@code Retry-After} as seconds or an HTTP date (RFC 9110 section 10.2.3). */
  private static Optional<Duration> retryAfter(String value, Instant now) {
    if (value.matches("\\d{1,10}")) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(now, at.toInstant());
      return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> count(String value) {
    String trimmed = value.trim();
    if (!trimmed.matches("\\d{1,15}")) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(trimmed));
  }
}
