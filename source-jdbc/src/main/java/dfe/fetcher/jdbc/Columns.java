package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.SourceException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A result set's columns as the record writer needs them: each label (the record's key) and how its
 * values become JSON. Built once per query from the metadata.
 */
final class Columns {

  /** How one column's values become JSON; see {@link RecordWriter}. */
  enum Kind {
    BOOLEAN,
    INTEGER,
    DECIMAL,
    FLOAT,
    DOUBLE,
    TEXT,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_WITH_ZONE,
    BINARY,
    /** A MySQL/MariaDB {@code BIT(n)} wider than one bit: its unsigned number. */
    BITS,
    JSON,
    UUID,
    ARRAY,
    OTHER
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
   *     label
   */
  static Columns ofQuery(ResultSet rows, Dialect dialect, String store)
      throws SQLException, SourceException {
    try {
      return of(rows.getMetaData(), dialect);
    } catch (DuplicateLabelException e) {
      throw new SourceException(store + ": " + e.getMessage(), e);
    }
  }

  /**
   * The columns of a result set.
   *
   * @throws DuplicateLabelException when two columns share a label: the record would lose one
   */
  static Columns of(ResultSetMetaData metadata, Dialect dialect)
      throws SQLException, DuplicateLabelException {
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
      columns.add(
          new Column(
              label,
              kindOf(
                  dialect,
                  metadata.getColumnType(i),
                  typeName(metadata, i),
                  precision(metadata, i)),
              scale));
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

  /** The kind for a column of JDBC type {@code type} named {@code name} by its database. */
  private static int precision(ResultSetMetaData metadata, int column) {
    try {
      return metadata.getPrecision(column);
    } catch (SQLException e) {
      return 0;
    }
  }

  static Kind kindOf(Dialect dialect, int type, String name, int precision) {
    // Type names first: drivers report several of these under a generic JDBC type.
    switch (name) {
      case "timestamptz", "timestamp with time zone" -> {
        return Kind.TIMESTAMP_WITH_ZONE;
      }
      case "json", "jsonb" -> {
        return Kind.JSON;
      }
      case "uuid" -> {
        return Kind.UUID;
      }
      case "bool", "boolean" -> {
        return Kind.BOOLEAN;
      }
      case "timestamp" -> {
        // MySQL's TIMESTAMP is an instant (given in the session's zone, UTC); its DATETIME and
        // every other database's TIMESTAMP are wall times.
        if (dialect == Dialect.MYSQL) {
          return Kind.TIMESTAMP_WITH_ZONE;
        }
      }
      case "bit" -> {
        if (dialect == Dialect.MYSQL && precision > 1) {
          return Kind.BITS;
        }
      }
      default -> {
        // by the JDBC type below
      }
    }
    Kind kind = byJdbcType(type);
    if (dialect == Dialect.SQLITE
        && (kind == Kind.DATE || kind == Kind.TIME || kind == Kind.TIMESTAMP)) {
      // SQLite has no date or time type, only what was stored (usually text); its driver parses
      // text at millisecond precision in the JVM's zone. Keep the value as stored instead.
      return Kind.TEXT;
    }
    return kind;
  }

  private static Kind byJdbcType(int type) {
    return switch (type) {
      case Types.BIT, Types.BOOLEAN -> Kind.BOOLEAN;
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Kind.INTEGER;
      case Types.NUMERIC, Types.DECIMAL -> Kind.DECIMAL;
      case Types.REAL -> Kind.FLOAT;
      case Types.FLOAT, Types.DOUBLE -> Kind.DOUBLE;
      case Types.CHAR,
          Types.VARCHAR,
          Types.LONGVARCHAR,
          Types.NCHAR,
          Types.NVARCHAR,
          Types.LONGNVARCHAR,
          Types.CLOB,
          Types.NCLOB ->
          Kind.TEXT;
      case Types.DATE -> Kind.DATE;
      case Types.TIME, Types.TIME_WITH_TIMEZONE -> Kind.TIME;
      case Types.TIMESTAMP -> Kind.TIMESTAMP;
      case Types.TIMESTAMP_WITH_TIMEZONE -> Kind.TIMESTAMP_WITH_ZONE;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Kind.BINARY;
      case Types.ARRAY -> Kind.ARRAY;
      default -> Kind.OTHER;
    };
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
