package dfe.fetcher.runtime.schedule;

import dfe.fetcher.runtime.tick.BoundUnit;
import java.time.Duration;
import java.util.List;

/**
 * One connection's work: its enabled units, run in order every {@code interval}.
 *
 * @param connection the connection id
 * @param interval time from the end of one run to the start of the next
 * @param units the connection's enabled units, in configuration order
 */
public record ConnectionJob(String connection, Duration interval, List<BoundUnit> units) {

  public ConnectionJob {
    units = List.copyOf(units);
  }
}
