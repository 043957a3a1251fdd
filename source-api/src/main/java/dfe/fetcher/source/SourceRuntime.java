package dfe.fetcher.source;

import dfe.fetcher.core.oversize.OversizePolicy;
import java.time.Clock;
import java.util.Objects;

/**
 * What an opened connection may use at run time.
 *
 * @param clock stamps rows with {@code _timestamp_fetcher}; injected so tests control time
 * @param oversize the deployment's {@code oversize:} block, for a source that can measure a record
 *     too long to send without holding it (it hands the driver a {@code Row.NotKept})
 * @param metrics where the source reports what only it sees (a REST source's pages and requests)
 */
public record SourceRuntime(Clock clock, OversizePolicy oversize, SourceMetrics metrics) {

  public SourceRuntime {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(oversize, "oversize");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** A runtime whose source metrics go nowhere. */
  public SourceRuntime(Clock clock, OversizePolicy oversize) {
    this(clock, oversize, SourceMetrics.NONE);
  }
}
