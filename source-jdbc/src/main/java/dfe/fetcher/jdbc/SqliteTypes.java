package dfe.fetcher.jdbc;

import java.util.Optional;

/**
 * SQLite's type mapping. SQLite has storage classes, not types: the driver reports a type from the
 * declared one. It has no date or time type, only what was stored (usually text), and its driver
 * parses text at millisecond precision in the JVM's zone, so a column declared as a date or time
 * keeps the value as stored; a CLOB is text the driver already holds.
 */
final class SqliteTypes implements TypeMapping {

  static final SqliteTypes MAPPING = new SqliteTypes();

  private SqliteTypes() {}

  @Override
  public Optional<Columns.Kind> kindOf(ColumnType type) {
    return StandardTypes.MAPPING
        .kindOf(type)
        .map(
            kind ->
                switch (kind) {
                  case DATE, TIME, TIME_WITH_ZONE, TIMESTAMP, TIMESTAMP_WITH_ZONE, CLOB ->
                      Columns.Kind.TEXT;
                  default -> kind;
                });
  }
}
