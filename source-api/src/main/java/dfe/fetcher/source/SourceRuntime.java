package dfe.fetcher.source;

import java.time.Clock;
import java.util.Objects;

/**
 * What an opened connection may use at run time.
 *
 * @param clock stamps rows with {@code _timestamp_fetcher}; injected so tests control time
 */
public record SourceRuntime(Clock clock) {

  public SourceRuntime {
    Objects.requireNonNull(clock, "clock");
  }
}
