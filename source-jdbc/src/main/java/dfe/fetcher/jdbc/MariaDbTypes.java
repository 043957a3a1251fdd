package dfe.fetcher.jdbc;

import java.sql.Types;
import java.util.Map;
import java.util.Optional;

/**
 * MariaDB's and MySQL's type mapping, by the type names MariaDB Connector/J reports, then by JDBC
 * type code.
 */
final class MariaDbTypes implements TypeMapping {

  static final MariaDbTypes MAPPING = new MariaDbTypes();

  private static final Map<String, Columns.Kind> BY_NAME =
      Map.ofEntries(
          // TIMESTAMP is an instant (given in the session's zone, UTC); DATETIME is a wall time.
          // Both, and DATE, may hold MariaDB's zero date, which the driver reads as NULL.
          Map.entry("timestamp", Columns.Kind.TIMESTAMP_WITH_ZONE_OR_ZERO),
          Map.entry("datetime", Columns.Kind.TIMESTAMP_OR_ZERO),
          Map.entry("date", Columns.Kind.DATE_OR_ZERO),
          // TIME is a duration (-838:59:59 to 838:59:59); as a LocalTime it wraps at 24 hours.
          Map.entry("time", Columns.Kind.DURATION),
          // YEAR is a number; the driver reports it as a DATE (yearIsDateType).
          Map.entry("year", Columns.Kind.YEAR),
          // An alias of LONGTEXT, reported as JSON.
          Map.entry("json", Columns.Kind.JSON),
          Map.entry("uuid", Columns.Kind.TEXT),
          Map.entry("bool", Columns.Kind.BOOLEAN),
          Map.entry("boolean", Columns.Kind.BOOLEAN));

  private MariaDbTypes() {}

  @Override
  public Optional<Columns.Kind> kindOf(ColumnType type) {
    if (type.name().equals("bit")) {
      // BIT(1) is a flag; a wider BIT(n) is its unsigned number.
      return Optional.of(type.precision() > 1 ? Columns.Kind.BITS : Columns.Kind.BOOLEAN);
    }
    Columns.Kind named = BY_NAME.get(type.name());
    if (named != null) {
      return Optional.of(named);
    }
    if (type.jdbcType() == Types.CLOB || type.jdbcType() == Types.NCLOB) {
      return Optional.of(Columns.Kind.TEXT); // TEXT columns: the driver has the string already
    }
    return StandardTypes.MAPPING.kindOf(type);
  }
}
