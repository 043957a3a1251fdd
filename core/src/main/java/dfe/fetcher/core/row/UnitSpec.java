package dfe.fetcher.core.row;

import java.util.Objects;
import java.util.Optional;

/**
 * What the driver needs to know about a unit, whatever its source.
 *
 * @param connection the connection id ({@code sources.<family>.<connection>})
 * @param unit the unit's name within the connection
 * @param shape dump or tail
 * @param rowKey a JSON pointer naming the row's identity, used for oversize stubs and message keys
 */
public record UnitSpec(String connection, String unit, Shape shape, Optional<String> rowKey) {

  public UnitSpec {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(rowKey, "rowKey");
  }

  /** {@code <connection>.<unit>}: the envelope's {@code store} and {@code _source_fetcher}. */
  public String store() {
    return connection + "." + unit;
  }
}
