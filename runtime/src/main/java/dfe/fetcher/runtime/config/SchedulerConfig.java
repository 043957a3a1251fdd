package dfe.fetcher.runtime.config;

import dfe.fetcher.runtime.schedule.TickJitter;
import java.time.Duration;

/**
 * {@code scheduler}: how often units run and how many run at once.
 *
 * @param defaultIntervalSecs seconds between two ticks of a connection that names no {@code
 *     interval_secs}; at least 1 (default 300)
 * @param maxConcurrentFetches units fetching at the same time, across connections; at least 1
 *     (default 4)
 * @param stopGraceSecs how long a stop (SIGTERM, SIGINT, a reload that replaces a connection) waits
 *     for running ticks after cancelling them, before the process exits or the connection is closed
 *     whatever its source is doing (default 30)
 * @param jitterPercent how far each connection's ticks are shifted, at most, as a share of its
 *     interval, 0 to 50 (default 0); see {@link TickJitter}
 */
public record SchedulerConfig(
    int defaultIntervalSecs, int maxConcurrentFetches, int stopGraceSecs, int jitterPercent) {

  public static final SchedulerConfig DEFAULT = new SchedulerConfig(300, 4, 30, 0);

  /** Without jitter, as configurations before {@code jitter_percent} were. */
  public SchedulerConfig(int defaultIntervalSecs, int maxConcurrentFetches, int stopGraceSecs) {
    this(defaultIntervalSecs, maxConcurrentFetches, stopGraceSecs, 0);
  }

  public TickJitter jitter() {
    return new TickJitter(jitterPercent);
  }

  public Duration stopGrace() {
    return Duration.ofSeconds(stopGraceSecs);
  }
}
