package dfe.fetcher.source;

import java.util.Map;

/**
 * Where a source reports what only it can see (pages fetched, requests by status, retries), beside
 * what the driver counts itself. Names come from {@code dfe.fetcher.core.metrics.MetricNames}; each
 * name is always reported with the same label names, {@code source} ({@code <connection>.<unit>})
 * first. Implementations are thread-safe and never block; a source never puts a secret or a
 * record's content in a label.
 */
public interface SourceMetrics {

  /** Reports nothing: for tests and runtimes without metrics. */
  SourceMetrics NONE =
      new SourceMetrics() {
        @Override
        public void increment(String name, String source, Map<String, String> labels) {}

        @Override
        public void observeSeconds(String name, String source, double seconds) {}
      };

  /** Adds one to the counter {@code name{source, labels}}. */
  void increment(String name, String source, Map<String, String> labels);

  /** Records a duration in the histogram {@code name{source}}. */
  void observeSeconds(String name, String source, double seconds);

  /**
   * Adds {@code amount} (at least 0) to the counter {@code name{source, labels}}: for what a source
   * counts in bulk (bytes read). A runtime that does not register {@code name} ignores it.
   */
  default void add(String name, String source, Map<String, String> labels, long amount) {}

  /**
   * Sets the gauge {@code name{source, labels}} to {@code value}: for what a source measures (files
   * followed, bytes behind). A runtime that does not register {@code name} ignores it.
   */
  default void set(String name, String source, Map<String, String> labels, double value) {}

  /** Removes the gauge series {@code name{source, labels}}: the thing it measured is gone. */
  default void remove(String name, String source, Map<String, String> labels) {}

  /**
   * Sets the gauge {@code name{source}} to {@code value} (what an API says is left of its quota).
   * Reports nothing unless the runtime keeps gauges.
   */
  default void set(String name, String source, double value) {}
}
