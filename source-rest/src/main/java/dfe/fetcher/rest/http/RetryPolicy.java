package dfe.fetcher.rest.http;

import java.time.Duration;

/**
 * {@code retry}: how often and how long a request that failed for a passing reason (a connection
 * error, a timeout, 408, 429, 5xx) is tried again.
 *
 * @param maxRetries tries after the first
 * @param initialBackoffMs the first back-off; each next one doubles, up to {@code maxBackoffMs},
 *     with jitter (a random part of the upper half)
 * @param maxRetryWaitSecs a {@code Retry-After} asking for longer fails the request instead
 */
public record RetryPolicy(
    int maxRetries, long initialBackoffMs, long maxBackoffMs, long maxRetryWaitSecs) {

  public static final RetryPolicy DEFAULT = new RetryPolicy(3, 500, 30_000, 300);

  /** How a failure's message ends once {@code retries} tries after the first failed too. */
  public static String gaveUp(int retries) {
    return retries == 0 ? "; no retries configured" : "; gave up after " + retries + " retries";
  }

  /** Whether a response with {@code status} is worth another try: 408, 429 and 5xx. */
  public static boolean retries(int status) {
    return status == 408 || status == 429 || status / 100 == 5;
  }

  /** The back-off before retry {@code retry} (0-based), {@code random} in [0, 1). */
  public Duration backoff(int retry, double random) {
    double ceiling = Math.min(maxBackoffMs, initialBackoffMs * Math.pow(2, Math.min(retry, 30)));
    return Duration.ofMillis((long) (ceiling / 2 + random * ceiling / 2));
  }
}
