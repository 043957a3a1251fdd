package dfe.fetcher.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.postgresql.PGResultSetMetaData;

/**
 * What the database's own metadata says of a tail key: whether a primary key or unique index makes
 * it unique. A keyset page boundary falls between two rows with equal keys as easily as anywhere,
 * and {@code k > ?} then passes over the second for good, so a key that is not unique loses rows.
 *
 * <p>The database can tell only when every column of the query's result comes from one table and
 * the driver names that table and the table's own column for each result column; columns of two
 * tables mean a join, which can repeat a key the table holds once. (A join that returns the columns
 * of one table only is taken as that table: the rows it repeats are the same record twice.)
 * PostgreSQL's driver does (its base table and column); MariaDB's and MySQL's do for the query
 * itself (asked with {@code LIMIT 0}); H2's and SQLite's name the derived table the tail reads
 * through instead, so there the answer is {@link Verdict#UNKNOWN}.
 */
final class KeyUniqueness {

  /** The answer. */
  enum Verdict {
    /** A primary key or a unique index without a condition covers the key's columns. */
    UNIQUE,
    /** The one table the query reads has no primary key or unique index within the key. */
    NOT_UNIQUE,
    /** The metadata cannot say: a join, an expression, or a driver that does not name tables. */
    UNKNOWN
  }

  /** The verdict and, when the database could tell, the table it looked at. */
  record Answer(Verdict verdict, String table) {}

  private KeyUniqueness() {}

  /**
   * Where a result column comes from: its table (with schema or catalog) and the table's column.
   */
  private record BaseColumn(String schema, String catalog, String table, String column) {
    boolean known() {
      return table != null && !table.isEmpty() && column != null && !column.isEmpty();
    }
  }

  /**
   * @param result the metadata of the query as the tail reads it (a derived table)
   * @param keyColumns the key's positions in {@code result}, 1-based
   * @param query the operator's query, for the drivers that name base tables only for it
   * @param queryTimeoutSecs the connection's {@code query_timeout_secs}, for that query
   */
  static Answer of(
      Connection connection,
      ResultSetMetaData result,
      List<Integer> keyColumns,
      Dialect dialect,
      String query,
      int queryTimeoutSecs)
      throws SQLException {
    List<BaseColumn> columns;
    if (dialect == Dialect.POSTGRES) {
      // Only here is pgjdbc known to be on the class path: a build without it never loads it.
      Optional<List<BaseColumn>> base = postgresBaseColumns(result);
      if (base.isEmpty()) {
        return new Answer(Verdict.UNKNOWN, "");
      }
      columns = base.get();
    } else if (dialect == Dialect.MYSQL) {
      Optional<List<BaseColumn>> probed = mysqlBaseColumns(connection, query, queryTimeoutSecs);
      if (probed.isEmpty() || probed.get().size() != result.getColumnCount()) {
        return new Answer(Verdict.UNKNOWN, "");
      }
      columns = probed.get();
    } else {
      return new Answer(Verdict.UNKNOWN, "");
    }
    Set<String> tables = new HashSet<>();
    BaseColumn any = null;
    for (int i = 1; i <= columns.size(); i++) {
      BaseColumn column = columns.get(i - 1);
      if (!column.known()) {
        if (keyColumns.contains(i)) {
          return new Answer(Verdict.UNKNOWN, ""); // the key is an expression
        }
        continue;
      }
      any = column;
      tables.add(column.catalog() + "." + column.schema() + "." + column.table());
    }
    if (tables.size() != 1) {
      return new Answer(Verdict.UNKNOWN, "");
    }
    Set<String> keyBaseColumns = new HashSet<>();
    for (int position : keyColumns) {
      keyBaseColumns.add(columns.get(position - 1).column().toLowerCase(Locale.ROOT));
    }
    String qualified = (any.schema().isEmpty() ? any.catalog() : any.schema()) + "." + any.table();
    for (Set<String> unique : uniqueColumnSets(connection.getMetaData(), any)) {
      if (keyBaseColumns.containsAll(unique)) {
        return new Answer(Verdict.UNIQUE, qualified);
      }
    }
    return new Answer(Verdict.NOT_UNIQUE, qualified);
  }

  /** PostgreSQL's driver names each column's base table and column even through a derived table. */
  private static Optional<List<BaseColumn>> postgresBaseColumns(ResultSetMetaData result)
      throws SQLException {
    if (!result.isWrapperFor(PGResultSetMetaData.class)) {
      return Optional.empty();
    }
    PGResultSetMetaData base = result.unwrap(PGResultSetMetaData.class);
    List<BaseColumn> columns = new ArrayList<>();
    for (int i = 1; i <= ((ResultSetMetaData) base).getColumnCount(); i++) {
      columns.add(
          new BaseColumn(
              base.getBaseSchemaName(i), "", base.getBaseTableName(i), base.getBaseColumnName(i)));
    }
    return Optional.of(columns);
  }

  /**
   * MariaDB's and MySQL's drivers name the derived table for a derived table's columns, but the
   * base table and column for the query's own: so the query itself is asked for its columns, with
   * {@code LIMIT 0} (which the server answers without reading a row). A query that cannot take the
   * clause (it has a {@code LIMIT} of its own), or a lock that holds it past the timeout, leaves
   * the answer unknown.
   */
  private static Optional<List<BaseColumn>> mysqlBaseColumns(
      Connection connection, String query, int queryTimeoutSecs) {
    try (Statement sql = connection.createStatement()) {
      sql.setQueryTimeout(queryTimeoutSecs);
      try (ResultSet rows = sql.executeQuery(query + " LIMIT 0")) {
        ResultSetMetaData meta = rows.getMetaData();
        List<BaseColumn> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          columns.add(
              new BaseColumn(
                  "", meta.getCatalogName(i), meta.getTableName(i), meta.getColumnName(i)));
        }
        return Optional.of(columns);
      }
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  /** The column sets of the table's primary key and of each unique index without a condition. */
  private static List<Set<String>> uniqueColumnSets(DatabaseMetaData metadata, BaseColumn table)
      throws SQLException {
    String catalog = table.catalog().isEmpty() ? null : table.catalog();
    String schema = table.schema().isEmpty() ? null : table.schema();
    List<Set<String>> sets = new ArrayList<>();
    Set<String> primary = new HashSet<>();
    try (ResultSet keys = metadata.getPrimaryKeys(catalog, schema, table.table())) {
      while (keys.next()) {
        primary.add(keys.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
      }
    }
    if (!primary.isEmpty()) {
      sets.add(primary);
    }
    Map<String, Set<String>> indexes = new HashMap<>();
    Set<String> partial = new HashSet<>();
    try (ResultSet index = metadata.getIndexInfo(catalog, schema, table.table(), true, true)) {
      while (index.next()) {
        String name = index.getString("INDEX_NAME");
        String column = index.getString("COLUMN_NAME");
        if (name == null || index.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
          continue;
        }
        String condition = index.getString("FILTER_CONDITION");
        if (column == null || (condition != null && !condition.isEmpty())) {
          partial.add(name); // an expression index or one with a WHERE: unique only in part
        } else {
          indexes.computeIfAbsent(name, n -> new HashSet<>()).add(column.toLowerCase(Locale.ROOT));
        }
      }
    }
    indexes.keySet().removeAll(partial);
    sets.addAll(indexes.values());
    return sets;
  }
}
