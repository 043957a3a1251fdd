package dfe.fetcher.file;

import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.source.config.ConfigOrigin;
import java.util.Objects;
import java.util.Optional;

/**
 * One unit of a {@code sources.file} connection.
 *
 * @param unit the unit's name, unique in its connection
 * @param enabled false keeps the unit configured but never run (default true)
 * @param rowKey a JSON pointer naming the row's identity, e.g. {@code /id}
 * @param dump the files to read and how to decode them; its globs are absolute
 * @param origin where the unit's name is written, and {@code path} its config path; neither takes
 *     part in equality, so a reload that only moves a unit's lines does not restart it
 */
public record FileUnit(
    String unit,
    boolean enabled,
    Optional<String> rowKey,
    FileDumpSpec dump,
    ConfigOrigin origin,
    String path) {

  /** A unit bound from nowhere in particular, for code that builds a configuration itself. */
  public FileUnit(String unit, boolean enabled, Optional<String> rowKey, FileDumpSpec dump) {
    this(unit, enabled, rowKey, dump, new ConfigOrigin.InEnvironment("none"), unit);
  }

  public FileUnit {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(dump, "dump");
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileUnit that
        && unit.equals(that.unit)
        && enabled == that.enabled
        && rowKey.equals(that.rowKey)
        && dump.equals(that.dump);
  }

  @Override
  public int hashCode() {
    return Objects.hash(unit, enabled, rowKey, dump);
  }
}
