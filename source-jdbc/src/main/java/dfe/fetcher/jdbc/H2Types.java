package dfe.fetcher.jdbc;

import java.util.Map;
import java.util.Optional;

/** H2's type mapping, by the type names H2 reports, then by JDBC type code. */
final class H2Types implements TypeMapping {

  static final H2Types MAPPING = new H2Types();

  private static final Map<String, Columns.Kind> BY_NAME =
      Map.of(
          "timestamp with time zone", Columns.Kind.TIMESTAMP_WITH_ZONE,
          "time with time zone", Columns.Kind.TIME_WITH_ZONE,
          "json", Columns.Kind.JSON,
          "uuid", Columns.Kind.TEXT);

  private H2Types() {}

  @Override
  public Optional<Columns.Kind> kindOf(ColumnType type) {
    if (type.name().startsWith("enum(")) {
      return Optional.of(Columns.Kind.TEXT); // reported as "enum('a', 'b')", read as its label
    }
    Columns.Kind named = BY_NAME.get(type.name());
    return named != null ? Optional.of(named) : StandardTypes.MAPPING.kindOf(type);
  }
}
