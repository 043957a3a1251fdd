package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.SourceException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A result set's columns as the record writer needs them: each label (the record's key) and how its
 * values become JSON. Built once per query from the metadata.
 */
final class Columns {

  /**
   * How one column's values are read and become JSON; written by {@link RecordWriter}, chosen per
   * column by the dialect's {@link TypeMapping}. Every kind reads its value with a typed getter;
   * none goes through {@code getObject().toString()}.
   */
  enum Kind {
    BOOLEAN,
    INTEGER,
    DECIMAL,
    FLOAT,
    DOUBLE,
    /** Text as the database prints it, through {@code getString}. */
    TEXT,
    /** A CLOB's characters, streamed through its reader. */
    CLOB,
    /** An XML document's text, through {@code getSQLXML}. */
    XML,
    DATE,
    /** A PostgreSQL date: {@code infinity} and {@code -infinity} land as those words. */
    DATE_OR_INFINITY,
    /** A MariaDB date: the zero date lands as the text {@code "0000-00-00"}. */
    DATE_OR_ZERO,
    TIME,
    /** A time of day with its offset: {@code "13:45:30+02:00"}, {@code "13:45:30Z"}. */
    TIME_WITH_ZONE,
    /**
     * A MariaDB TIME: a signed duration of up to 838 hours, {@code "-01:00:00"}, {@code
     * "25:30:00"}.
     */
    DURATION,
    /** A MariaDB YEAR: its number. */
    YEAR,
    TIMESTAMP,
    /** A PostgreSQL timestamp: {@code infinity} and {@code -infinity} land as those words. */
    TIMESTAMP_OR_INFINITY,
    /** A MariaDB DATETIME: the zero date lands as the text {@code "0000-00-00 00:00:00"}. */
    TIMESTAMP_OR_ZERO,
    TIMESTAMP_WITH_ZONE,
    /** A PostgreSQL timestamptz: {@code infinity} and {@code -infinity} land as those words. */
    TIMESTAMP_WITH_ZONE_OR_INFINITY,
    /** A MariaDB TIMESTAMP: the zero date lands as the text {@code "0000-00-00 00:00:00"}. */
    TIMESTAMP_WITH_ZONE_OR_ZERO,
    BINARY,
    /** A MySQL/MariaDB {@code BIT(n)} wider than one bit: its unsigned number. */
    BITS,
    /** A PostgreSQL {@code bit(n)} wider than one bit, or a {@code varbit}: {@code "10100101"}. */
    BIT_STRING,
    /** A PostgreSQL {@code money}: its exact decimal, parsed from the text lc_monetary gives. */
    MONEY,
    JSON,
    ARRAY
  }

  /** One column: its label, its kind, and the fractional digits its type declares (or 0). */
  record Column(String label, Kind kind, int scale) {}

  private final List<Column> columns;

  private Columns(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  List<Column> all() {
    return columns;
  }

  int size() {
    return columns.size();
  }

  /** The 1-based index of the column labelled {@code label}, or -1. */
  int indexOf(String label) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).label().equals(label)) {
        return i + 1;
      }
    }
    return -1;
  }

  /**
   * The columns of a store's query result.
   *
   * @throws dfe.fetcher.core.row.SourceException naming {@code store} when two columns share a
   *     label, or when a column's type is one the dialect's mapping does not know
   */
  static Columns ofQuery(ResultSet rows, Dialect dialect, String store)
      throws SQLException, SourceException {
    try {
      return of(rows.getMetaData(), dialect);
    } catch (DuplicateLabelException | UnmappedTypeException e) {
      throw new SourceException(store + ": " + e.getMessage(), e);
    }
  }

  /**
   * The columns of a result set.
   *
   * @throws DuplicateLabelException when two columns share a label: the record would lose one
   * @throws UnmappedTypeException when a column's type is one the dialect's mapping does not know
   */
  static Columns of(ResultSetMetaData metadata, Dialect dialect)
      throws SQLException, DuplicateLabelException, UnmappedTypeException {
    List<Column> columns = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 1; i <= metadata.getColumnCount(); i++) {
      String label = metadata.getColumnLabel(i);
      Integer first = seen.putIfAbsent(label, i);
      if (first != null) {
        throw new DuplicateLabelException(label, first, i);
      }
      int scale;
      try {
        scale = Math.max(0, Math.min(9, metadata.getScale(i)));
      } catch (SQLException e) {
        scale = 0;
      }
      columns.add(new Column(label, kindOf(metadata, i, label, dialect), scale));
    }
    return new Columns(columns);
  }

  private static String typeName(ResultSetMetaData metadata, int column) {
    try {
      String name = metadata.getColumnTypeName(column);
      return name == null ? "" : name.toLowerCase(Locale.ROOT);
    } catch (SQLException e) {
      return "";
    }
  }

  private static int precision(ResultSetMetaData metadata, int column) {
    try {
      return metadata.getPrecision(column);
    } catch (SQLException e) {
      return 0;
    }
  }

  private static Kind kindOf(ResultSetMetaData metadata, int column, String label, Dialect dialect)
      throws SQLException, UnmappedTypeException {
    int jdbcType = metadata.getColumnType(column);
    String name = typeName(metadata, column);
    Optional<Kind> kind =
        dialect
            .typeMapping()
            .kindOf(new TypeMapping.ColumnType(jdbcType, name, precision(metadata, column)));
    if (kind.isEmpty()) {
      throw new UnmappedTypeException(label, name, jdbcType, dialect);
    }
    return kind.get();
  }

  /** A column of a type the dialect's mapping does not know. */
  static final class UnmappedTypeException extends Exception {
    private static final long serialVersionUID = 1L;

    UnmappedTypeException(String label, String typeName, int jdbcType, Dialect dialect) {
      super(
          "column \""
              + label
              + "\" has type \""
              + typeName
              + "\" (JDBC type "
              + jdbcType
              + "), which the "
              + dialect.configName()
              + " type mapping does not know; cast it in the query to a type it maps (for example"
              + " CAST(... AS varchar)), see docs/sources-db.md#column-mapping");
    }
  }

  /** A query whose result has two columns of one label. */
  static final class DuplicateLabelException extends Exception {
    private static final long serialVersionUID = 1L;

    DuplicateLabelException(String label, int first, int second) {
      super(
          "the query's result has two columns labelled \""
              + label
              + "\" (columns "
              + first
              + " and "
              + second
              + "); give one an alias, e.g. SELECT a.id, b.id AS b_id");
    }
  }
}
