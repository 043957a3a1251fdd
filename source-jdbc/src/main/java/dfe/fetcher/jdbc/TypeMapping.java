package dfe.fetcher.jdbc;

import java.util.Optional;

/**
 * One dialect's type mapping: which {@link Columns.Kind} (how its values are read and written as
 * JSON, see {@link RecordWriter}) a result column of a given database type gets. Each dialect has
 * one ({@link Dialect#typeMapping()}); a new type is one entry in its dialect's mapping.
 *
 * <p>The contract:
 *
 * <ul>
 *   <li>A mapping is handed each column's type as the driver reports it, a {@link ColumnType}: the
 *       JDBC type code, the database's type name in lower case, the declared precision. It is asked
 *       once per column when a query's result arrives (and once per element type of an array),
 *       never per row: the per-value work is {@link RecordWriter}'s switch on the kind alone.
 *   <li>It answers the kind whose reader gives the value exactly: text the database prints through
 *       {@code getString}, a CLOB through its reader, XML through {@code getSQLXML}, dates and
 *       times through {@code java.time}, numbers without a double. No kind reads {@code
 *       getObject()} and writes its {@code toString()}: a Java object's string ({@code
 *       PgSQLXML@1a2b}, {@code clob0: 'x'}) is never a value, and a mapping may never fall back to
 *       one.
 *   <li>It answers empty for a type it does not know. The query then fails before its first row,
 *       naming the store, the column and the type ({@link Columns.UnmappedTypeException}): a guess
 *       would land a wrong value in a snapshot that verifies complete.
 *   <li>It is stateless and thread-safe.
 * </ul>
 */
interface TypeMapping {

  /** The kind for {@code type}, or empty when this mapping does not know the type. */
  Optional<Columns.Kind> kindOf(ColumnType type);

  /**
   * A result column's type as the driver reports it: {@code jdbcType} from {@link java.sql.Types},
   * {@code name} the database's type name in lower case ({@code ""} when the driver gives none),
   * {@code precision} the declared precision or length (0 when unknown).
   */
  record ColumnType(int jdbcType, String name, int precision) {}
}
