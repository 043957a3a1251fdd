package dfe.fetcher.jdbc;

import java.sql.Types;
import java.util.Optional;

/**
 * The mapping by JDBC type code alone, for a dialect with no types of its own ({@code generic},
 * {@code mssql}, {@code oracle}, {@code clickhouse}) and as the last step of every other dialect's
 * mapping. Vendor codes and {@code OTHER}, {@code JAVA_OBJECT}, {@code STRUCT}, {@code DISTINCT},
 * {@code REF}, {@code ROWID}, {@code DATALINK} are not known: a column of one fails the query.
 */
final class StandardTypes implements TypeMapping {

  static final StandardTypes MAPPING = new StandardTypes();

  private StandardTypes() {}

  @Override
  public Optional<Columns.Kind> kindOf(ColumnType type) {
    return Optional.ofNullable(byJdbcType(type.jdbcType()));
  }

  /** The kind for a JDBC type code, or null for a code this mapping does not know. */
  static Columns.Kind byJdbcType(int jdbcType) {
    return switch (jdbcType) {
      case Types.BIT, Types.BOOLEAN -> Columns.Kind.BOOLEAN;
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Columns.Kind.INTEGER;
      case Types.NUMERIC, Types.DECIMAL -> Columns.Kind.DECIMAL;
      case Types.REAL -> Columns.Kind.FLOAT;
      case Types.FLOAT, Types.DOUBLE -> Columns.Kind.DOUBLE;
      case Types.CHAR,
          Types.VARCHAR,
          Types.LONGVARCHAR,
          Types.NCHAR,
          Types.NVARCHAR,
          Types.LONGNVARCHAR ->
          Columns.Kind.TEXT;
      // A column whose every value is NULL (SELECT NULL AS x): nothing to read but the NULL.
      case Types.NULL -> Columns.Kind.TEXT;
      case Types.CLOB, Types.NCLOB -> Columns.Kind.CLOB;
      case Types.SQLXML -> Columns.Kind.XML;
      case Types.DATE -> Columns.Kind.DATE;
      case Types.TIME -> Columns.Kind.TIME;
      case Types.TIME_WITH_TIMEZONE -> Columns.Kind.TIME_WITH_ZONE;
      case Types.TIMESTAMP -> Columns.Kind.TIMESTAMP;
      case Types.TIMESTAMP_WITH_TIMEZONE -> Columns.Kind.TIMESTAMP_WITH_ZONE;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Columns.Kind.BINARY;
      case Types.ARRAY -> Columns.Kind.ARRAY;
      default -> null;
    };
  }
}
