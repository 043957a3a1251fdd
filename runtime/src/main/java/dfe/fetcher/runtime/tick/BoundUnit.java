package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.UnitSpec;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A unit bound to what its ticks need.
 *
 * @param spec connection, unit, shape and row key
 * @param topic where its frames or records land, suffix included
 * @param sourceName the topic without the suffix: the {@code _source} enrichment field
 * @param source reads the unit's rows
 * @param cursorKey {@code <instance>.<connection>.<unit>}
 * @param filter the connection's current filter, read at the start of each tick so a reload takes
 *     effect on the next one
 * @param markKind the kind of checkpoint the unit commits; empty when it commits none (a database
 *     or REST dump), and then no checkpoint is loaded either
 */
public record BoundUnit(
    UnitSpec spec,
    String topic,
    String sourceName,
    RowSource source,
    String cursorKey,
    Supplier<RowFilterStage> filter,
    Optional<Mark.Kind> markKind) {

  public BoundUnit {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(sourceName, "sourceName");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(cursorKey, "cursorKey");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(markKind, "markKind");
  }

  public String store() {
    return spec.store();
  }

  Optional<RowKey> rowKey() {
    return spec.rowKey().map(RowKey::at);
  }
}
