package dfe.fetcher.runtime.config;

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
 */
public record SchedulerConfig(
    int defaultIntervalSecs, int maxConcurrentFetches, int stopGraceSecs) {

  public static final SchedulerConfig DEFAULT = new SchedulerConfig(300, 4, 30);

  public Duration stopGrace() {
    return Duration.ofSeconds(stopGraceSecs);
  }
}
