package dfe.fetcher.file;

import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.source.config.ConfigOrigin;
import java.util.Objects;
import java.util.Optional;

/**
 * One unit of a {@code sources.file} connection.
 *
 * @param unit the unit's name, unique in its connection
 * @param enabled false keeps the unit configured but never run (default true)
 * @param rowKey a JSON pointer naming the row's identity, e.g. {@code /id}
 * @param dump for a dump unit, the files to read and how to decode them; its globs are absolute
 * @param tail for a tail unit, the files to follow and how; exactly one of {@code dump} and {@code
 *     tail} is present
 * @param origin where the unit's name is written, and {@code path} its config path; neither takes
 *     part in equality, so a reload that only moves a unit's lines does not restart it
 */
public record FileUnit(
    String unit,
    boolean enabled,
    Optional<String> rowKey,
    Optional<FileDumpSpec> dump,
    Optional<FileTailSpec> tail,
    ConfigOrigin origin,
    String path) {

  /** A dump unit bound from nowhere in particular, for code that builds a configuration itself. */
  public FileUnit(String unit, boolean enabled, Optional<String> rowKey, FileDumpSpec dump) {
    this(
        unit,
        enabled,
        rowKey,
        Optional.of(dump),
        Optional.empty(),
        new ConfigOrigin.InEnvironment("none"),
        unit);
  }

  /** A tail unit bound from nowhere in particular, for code that builds a configuration itself. */
  public FileUnit(String unit, boolean enabled, Optional<String> rowKey, FileTailSpec tail) {
    this(
        unit,
        enabled,
        rowKey,
        Optional.empty(),
        Optional.of(tail),
        new ConfigOrigin.InEnvironment("none"),
        unit);
  }

  public FileUnit {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(dump, "dump");
    Objects.requireNonNull(tail, "tail");
    if (dump.isPresent() == tail.isPresent()) {
      throw new IllegalArgumentException(
          "file unit " + unit + " needs exactly one of dump and tail");
    }
  }

  /** Whether the unit follows files ({@code tail:}) rather than dumping them. */
  public boolean isTail() {
    return tail.isPresent();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileUnit that
        && unit.equals(that.unit)
        && enabled == that.enabled
        && rowKey.equals(that.rowKey)
        && dump.equals(that.dump)
        && tail.equals(that.tail);
  }

  @Override
  public int hashCode() {
    return Objects.hash(unit, enabled, rowKey, dump, tail);
  }
}
