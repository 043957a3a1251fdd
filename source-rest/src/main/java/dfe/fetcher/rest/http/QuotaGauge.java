package dfe.fetcher.rest.http;

import dfe.fetcher.core.metrics.MetricNames;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a profile's {@code quota.headers} may name a response header for, each one gauge per unit:
 * the requests left, the requests a window allows, and the seconds until the window resets.
 */
public enum QuotaGauge {
  /** The requests left in the current window, as the header says. */
  REMAINING("remaining", MetricNames.API_QUOTA_REMAINING),
  /** The requests the current window allows, as the header says. */
  LIMIT("limit", MetricNames.API_QUOTA_LIMIT),
  /**
   * The seconds until the window resets: a value below {@value RateLimitHeaders#EPOCH_FROM} as it
   * is (seconds from now, Datadog's), a larger one epoch seconds, counted down on the connection's
   * clock and never below 0.
   */
  RESET("reset", MetricNames.API_QUOTA_RESET_SECONDS);

  private final String word;
  private final String metric;

  QuotaGauge(String word, String metric) {
    this.word = word;
    this.metric = metric;
  }

  /** The key under {@code quota.headers}. */
  public String word() {
    return word;
  }

  /** The gauge it sets, labelled with the unit's {@code source}. */
  public String metric() {
    return metric;
  }

  /** Every key {@code quota.headers} takes, in order. */
  public static List<String> words() {
    return Stream.of(values()).map(QuotaGauge::word).toList();
  }

  public static Optional<QuotaGauge> of(String word) {
    return Stream.of(values()).filter(gauge -> gauge.word.equals(word)).findFirst();
  }

  /**
   * The gauge's value for a header's value, read at {@code now}; empty when the value is not a
   * whole number from 0 (a header that does not parse leaves the gauge as it was).
   */
  Optional<Double> value(String header, Instant now) {
    String trimmed = header.trim();
    if (!trimmed.matches("\\d{1,15}")) {
      return Optional.empty();
    }
    long number = Long.parseLong(trimmed);
    if (this == RESET && number >= RateLimitHeaders.EPOCH_FROM) {
      return Optional.of((double) Math.max(0, number - now.getEpochSecond()));
    }
    return Optional.of((double) number);
  }
}
