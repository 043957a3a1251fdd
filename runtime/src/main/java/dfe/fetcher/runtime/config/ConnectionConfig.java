package dfe.fetcher.runtime.config;

import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One connection under {@code sources.<family>}: the settings every family shares, bound by the
 * application, and what the family bound.
 *
 * @param family the family's key under {@code sources}: {@code file}, {@code db}, {@code rest}
 * @param id the connection id, unique across every family, without {@code .}
 * @param topic the topic its units' topics are made from
 * @param intervalSecs seconds between ticks; empty means {@code scheduler.default_interval_secs}
 * @param enabled false keeps the connection configured but never run (default true)
 * @param filter a CEL expression a row must satisfy to be landed, already known to compile
 * @param filterErrors what a row the filter cannot judge does ({@code filter_errors})
 * @param source the family's binding: units, and how to open what they share
 */
public record ConnectionConfig(
    String family,
    String id,
    String topic,
    OptionalInt intervalSecs,
    boolean enabled,
    Optional<String> filter,
    FilterErrors filterErrors,
    SourceConnection source) {

  public ConnectionConfig {
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(intervalSecs, "intervalSecs");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(filterErrors, "filterErrors");
    Objects.requireNonNull(source, "source");
  }

  /** What the driver needs to know about {@code unit}. */
  public UnitSpec spec(SourceUnit unit) {
    return new UnitSpec(id, unit.unit(), unit.shape(), unit.rowKey());
  }

  /** The same connection with another filter: what a reload compares to tell other changes. */
  public ConnectionConfig withFilter(Optional<String> otherFilter, FilterErrors otherOnError) {
    return new ConnectionConfig(
        family, id, topic, intervalSecs, enabled, otherFilter, otherOnError, source);
  }
}
