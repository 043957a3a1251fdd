package dfe.fetcher.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One unit of a {@code sources.file} connection.
 *
 * @param unit the unit's name, unique in its connection, without {@code .}
 * @param enabled false keeps the unit configured but never run (default true)
 * @param rowKey a JSON pointer naming the row's identity, e.g. {@code /id}, valid per {@link
 *     dfe.fetcher.row.RowKey#at}
 * @param dump the files to read
 */
public record FileUnit(String unit, boolean enabled, Optional<String> rowKey, FileDump dump) {

  public FileUnit {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(rowKey, "rowKey");
    Objects.requireNonNull(dump, "dump");
  }
}
