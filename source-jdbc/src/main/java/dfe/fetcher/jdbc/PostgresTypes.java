package dfe.fetcher.jdbc;

import java.util.Map;
import java.util.Optional;

/**
 * PostgreSQL's type mapping, by the type names pgjdbc reports ({@code int4}, {@code timestamptz},
 * {@code _int4} for arrays, which it reports as {@code ARRAY}), then by JDBC type code. Enums and
 * composite types, domains over unknown types and extension types not listed fail the query: cast
 * them in the query ({@code status::text}).
 */
final class PostgresTypes implements TypeMapping {

  static final PostgresTypes MAPPING = new PostgresTypes();

  private static final Map<String, Columns.Kind> BY_NAME =
      Map.ofEntries(
          // pgjdbc builds MAX/MIN for 'infinity'/'-infinity': landed as those words, not as dates.
          Map.entry("date", Columns.Kind.DATE_OR_INFINITY),
          Map.entry("timestamp", Columns.Kind.TIMESTAMP_OR_INFINITY),
          Map.entry("timestamptz", Columns.Kind.TIMESTAMP_WITH_ZONE_OR_INFINITY),
          Map.entry("timetz", Columns.Kind.TIME_WITH_ZONE),
          Map.entry("json", Columns.Kind.JSON),
          Map.entry("jsonb", Columns.Kind.JSON),
          Map.entry("uuid", Columns.Kind.TEXT),
          Map.entry("bool", Columns.Kind.BOOLEAN),
          Map.entry("xml", Columns.Kind.XML),
          // pgjdbc reads money as a double (losing cents) and cannot parse "$1,234.56" at all.
          Map.entry("money", Columns.Kind.MONEY),
          Map.entry("varbit", Columns.Kind.BIT_STRING),
          // Types whose value is the text PostgreSQL prints.
          Map.entry("interval", Columns.Kind.TEXT),
          Map.entry("inet", Columns.Kind.TEXT),
          Map.entry("cidr", Columns.Kind.TEXT),
          Map.entry("macaddr", Columns.Kind.TEXT),
          Map.entry("macaddr8", Columns.Kind.TEXT),
          Map.entry("tsvector", Columns.Kind.TEXT),
          Map.entry("tsquery", Columns.Kind.TEXT),
          Map.entry("point", Columns.Kind.TEXT),
          Map.entry("line", Columns.Kind.TEXT),
          Map.entry("lseg", Columns.Kind.TEXT),
          Map.entry("box", Columns.Kind.TEXT),
          Map.entry("path", Columns.Kind.TEXT),
          Map.entry("polygon", Columns.Kind.TEXT),
          Map.entry("circle", Columns.Kind.TEXT),
          Map.entry("int4range", Columns.Kind.TEXT),
          Map.entry("int8range", Columns.Kind.TEXT),
          Map.entry("numrange", Columns.Kind.TEXT),
          Map.entry("daterange", Columns.Kind.TEXT),
          Map.entry("tsrange", Columns.Kind.TEXT),
          Map.entry("tstzrange", Columns.Kind.TEXT),
          Map.entry("citext", Columns.Kind.TEXT),
          Map.entry("hstore", Columns.Kind.TEXT),
          Map.entry("pg_lsn", Columns.Kind.TEXT),
          // A function returning nothing (SELECT pg_sleep(1)): PostgreSQL prints it as "".
          Map.entry("void", Columns.Kind.TEXT));

  private PostgresTypes() {}

  @Override
  public Optional<Columns.Kind> kindOf(ColumnType type) {
    if (type.name().equals("bit")) {
      // bit(1) (and bit, which is bit(1)) is a flag; a wider one is a string of bits.
      return Optional.of(type.precision() > 1 ? Columns.Kind.BIT_STRING : Columns.Kind.BOOLEAN);
    }
    Columns.Kind named = BY_NAME.get(type.name());
    return named != null ? Optional.of(named) : StandardTypes.MAPPING.kindOf(type);
  }
}
