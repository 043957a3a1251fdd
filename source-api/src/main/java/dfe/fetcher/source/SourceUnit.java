package dfe.fetcher.source;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.source.config.ConfigOrigin;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the application needs to know about one bound unit, whatever its family.
 *
 * @param unit its name, unique in its connection
 * @param enabled false keeps it configured but never run
 * @param shape dump or tail: where it lands ({@code <topic>-<unit>} or {@code <topic>}) and how
 * @param rowKey a JSON pointer naming a row's identity, for oversize stubs and message keys
 * @param markKind the kind of checkpoint it commits; empty when it commits none (a database or REST
 *     dump)
 * @param details lines for {@code config-check}'s summary (decoder, paths, query); never a secret
 * @param origin where the unit's name is written, for problems the application finds with the unit
 *     (its topic, say)
 * @param path the config path of the unit's name, e.g. {@code sources.file.inv.units[0].unit}
 */
public record SourceUnit(
    String unit,
    boolean enabled,
    Shape shape,
    Optional<String> rowKey,
    Optional<Mark.Kind> markKind,
    List<String> details,
    ConfigOrigin origin,
    String path) {

  public SourceUnit {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(markKind, "markKind");
    details = List.copyOf(details);
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(path, "path");
  }

  /**
   * The config path of the unit's setting {@code key}, beside its name: {@code
   * sources.db.crm.stores[0].resume} for {@code resume}.
   */
  public String settingPath(String key) {
    String at = path.endsWith(".unit") ? path.substring(0, path.length() - ".unit".length()) : path;
    return at + "." + key;
  }
}
