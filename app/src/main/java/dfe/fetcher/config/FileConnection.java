package dfe.fetcher.config;

import dfe.fetcher.row.Shape;
import dfe.fetcher.row.UnitSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One connection under {@code sources.file}.
 *
 * @param id the connection id: its key under {@code sources.file}, unique across every source
 *     family, without {@code .}
 * @param topic the topic its units' topics are made from
 * @param intervalSecs seconds between ticks; empty means {@code scheduler.default_interval_secs}
 * @param enabled false keeps the connection configured but never run (default true)
 * @param filter a CEL expression a row must satisfy to be landed, already known to compile
 * @param units at least one, names unique
 */
public record FileConnection(
    String id,
    String topic,
    OptionalInt intervalSecs,
    boolean enabled,
    Optional<String> filter,
    List<FileUnit> units) {

  public FileConnection {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(intervalSecs, "intervalSecs");
    Objects.requireNonNull(filter, "filter");
    units = List.copyOf(units);
  }

  /** What the driver needs to know about {@code unit}: every file unit is a dump. */
  public UnitSpec spec(FileUnit unit) {
    return new UnitSpec(id, unit.unit(), Shape.DUMP, unit.rowKey());
  }
}
