package dfe.fetcher.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * PostgreSQL's driver does (its base table and column); MariaDB's, MySQL's, H2's and SQLite's name
 * the derived table the tail reads through instead, so there the answer is {@link Verdict#UNKNOWN}.
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
   * @param keyColumns the key's positions in {@code result}, 1-based
   */
  static Answer of(Connection connection, ResultSetMetaData result, List<Integer> keyColumns)
      throws SQLException {
    if (!result.isWrapperFor(PGResultSetMetaData.class)) {
      return new Answer(Verdict.UNKNOWN, "");
    }
    PGResultSetMetaData base = result.unwrap(PGResultSetMetaData.class);
    Set<String> tables = new HashSet<>();
    String schema = "";
    String table = "";
    for (int i = 1; i <= result.getColumnCount(); i++) {
      String baseTable = base.getBaseTableName(i);
      if (baseTable == null || baseTable.isEmpty()) {
        if (keyColumns.contains(i)) {
          return new Answer(Verdict.UNKNOWN, ""); // the key is an expression
        }
        continue;
      }
      schema = base.getBaseSchemaName(i);
      table = baseTable;
      tables.add(schema + "." + baseTable);
    }
    if (tables.size() != 1) {
      return new Answer(Verdict.UNKNOWN, "");
    }
    Set<String> keyBaseColumns = new HashSet<>();
    for (int column : keyColumns) {
      keyBaseColumns.add(base.getBaseColumnName(column).toLowerCase(Locale.ROOT));
    }
    String qualified = schema + "." + table;
    for (Set<String> unique : uniqueColumnSets(connection.getMetaData(), schema, table)) {
      if (keyBaseColumns.containsAll(unique)) {
        return new Answer(Verdict.UNIQUE, qualified);
      }
    }
    return new Answer(Verdict.NOT_UNIQUE, qualified);
  }

  /** The column sets of the table's primary key and of each unique index without a condition. */
  private static List<Set<String>> uniqueColumnSets(
      DatabaseMetaData metadata, String schema, String table) throws SQLException {
    List<Set<String>> sets = new ArrayList<>();
    Set<String> primary = new HashSet<>();
    try (ResultSet keys = metadata.getPrimaryKeys(null, schema, table)) {
      while (keys.next()) {
        primary.add(keys.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
      }
    }
    if (!primary.isEmpty()) {
      sets.add(primary);
    }
    Map<String, Set<String>> indexes = new HashMap<>();
    Set<String> partial = new HashSet<>();
    try (ResultSet index = metadata.getIndexInfo(null, schema, table, true, true)) {
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
