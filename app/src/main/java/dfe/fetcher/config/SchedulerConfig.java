package dfe.fetcher.config;

/**
 * {@code scheduler}: how often units run and how many run at once.
 *
 * @param defaultIntervalSecs seconds between two ticks of a connection that names no {@code
 *     interval_secs}; at least 1 (default 300)
 * @param maxConcurrentFetches units fetching at the same time, across connections; at least 1
 *     (default 4)
 */
public record SchedulerConfig(int defaultIntervalSecs, int maxConcurrentFetches) {

  public static final SchedulerConfig DEFAULT = new SchedulerConfig(300, 4);
}
