package dfe.fetcher.jdbc;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What differs between databases in the SQL a store runs: how identifiers are quoted, how a page is
 * capped, whether row values ({@code (a, b) > (?, ?)}) compare, and how a result set is made to
 * stream, and how column types map ({@link #typeMapping()}). Chosen by {@code dialect:}, or
 * detected from the JDBC URL.
 */
public enum Dialect {
  POSTGRES("postgres", '"', Cap.LIMIT, true, Connection.TRANSACTION_REPEATABLE_READ),
  MYSQL("mysql", '`', Cap.LIMIT, true, Connection.TRANSACTION_REPEATABLE_READ),
  SQLITE("sqlite", '"', Cap.LIMIT, true, Connection.TRANSACTION_SERIALIZABLE),
  H2("h2", '"', Cap.LIMIT, true, Connection.TRANSACTION_REPEATABLE_READ),
  MSSQL("mssql", '[', Cap.OFFSET_FETCH, false, Connection.TRANSACTION_SERIALIZABLE),
  ORACLE("oracle", '"', Cap.FETCH_FIRST, false, Connection.TRANSACTION_SERIALIZABLE),
  CLICKHOUSE("clickhouse", '`', Cap.LIMIT, true, Connection.TRANSACTION_NONE),
  GENERIC("generic", '"', Cap.FETCH_FIRST, false, Connection.TRANSACTION_SERIALIZABLE);

  /** How a page is capped at {@code n} rows, after its ORDER BY. */
  enum Cap {
    /** {@code LIMIT n} */
    LIMIT,
    /** {@code FETCH FIRST n ROWS ONLY} (SQL:2008) */
    FETCH_FIRST,
    /** {@code OFFSET 0 ROWS FETCH NEXT n ROWS ONLY} (SQL Server) */
    OFFSET_FETCH
  }

  /** Rows fetched per round trip when streaming a result set. */
  static final int FETCH_SIZE = 1_000;

  private final String configName;
  private final char quote;
  private final Cap cap;
  private final boolean rowValues;
  private final int snapshotIsolation;

  Dialect(String configName, char quote, Cap cap, boolean rowValues, int snapshotIsolation) {
    this.configName = configName;
    this.quote = quote;
    this.cap = cap;
    this.rowValues = rowValues;
    this.snapshotIsolation = snapshotIsolation;
  }

  public String configName() {
    return configName;
  }

  static List<String> names() {
    return Arrays.stream(values()).map(Dialect::configName).toList();
  }

  static Optional<Dialect> named(String name) {
    for (Dialect dialect : values()) {
      if (dialect.configName.equals(name)) {
        return Optional.of(dialect);
      }
    }
    return Optional.empty();
  }

  /** The dialect a JDBC URL names ({@code jdbc:postgresql:...}); generic when it is none known. */
  static Dialect ofUrl(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:postgresql:")) {
      return POSTGRES;
    }
    if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:")) {
      return MYSQL;
    }
    if (lower.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (lower.startsWith("jdbc:h2:")) {
      return H2;
    }
    if (lower.startsWith("jdbc:sqlserver:")) {
      return MSSQL;
    }
    if (lower.startsWith("jdbc:oracle:")) {
      return ORACLE;
    }
    if (lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:")) {
      return CLICKHOUSE;
    }
    return GENERIC;
  }

  /** {@code identifier} quoted, any quote inside it doubled: a column named {@code select}. */
  String quote(String identifier) {
    char close = quote == '[' ? ']' : quote;
    String escaped = identifier.replace(String.valueOf(close), "" + close + close);
    return quote + escaped + close;
  }

  boolean hasRowValues() {
    return rowValues;
  }

  /** How this dialect's column types become JSON; see {@link TypeMapping} for the contract. */
  TypeMapping typeMapping() {
    return switch (this) {
      case POSTGRES -> PostgresTypes.MAPPING;
      case MYSQL -> MariaDbTypes.MAPPING;
      case SQLITE -> SqliteTypes.MAPPING;
      case H2 -> H2Types.MAPPING;
      case MSSQL, ORACLE, CLICKHOUSE, GENERIC -> StandardTypes.MAPPING;
    };
  }

  /** The isolation at which a count and the rows describe one state of the table. */
  int snapshotIsolation() {
    return snapshotIsolation;
  }

  /** {@code SELECT COUNT(*)} over the operator's query. */
  String count(String query) {
    return "SELECT COUNT(*) FROM (" + query + ") dfe_q";
  }

  /**
   * One page of a keyset tail: the operator's query as a derived table, rows after the bound key
   * (when {@code afterKey}), younger than the bound cutoff on the first key column (when {@code
   * settled}), ordered by the key, capped at {@code limit}. Parameters, in order: the key values
   * (as many times as the comparison names them, see {@link #afterKeyParameters}), then the cutoff.
   */
  String page(String query, List<String> key, boolean afterKey, boolean settled, int limit) {
    StringBuilder sql = new StringBuilder();
    sql.append("SELECT * FROM (").append(query).append(") dfe_q");
    List<String> conditions = new ArrayList<>();
    if (afterKey) {
      conditions.add(afterKeyCondition(key));
    }
    if (settled) {
      conditions.add(column(key.get(0)) + " < ?");
    }
    if (!conditions.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", conditions));
    }
    sql.append(" ORDER BY ").append(String.join(", ", key.stream().map(this::column).toList()));
    switch (cap) {
      case LIMIT -> sql.append(" LIMIT ").append(limit);
      case FETCH_FIRST -> sql.append(" FETCH FIRST ").append(limit).append(" ROWS ONLY");
      case OFFSET_FETCH ->
          sql.append(" OFFSET 0 ROWS FETCH NEXT ").append(limit).append(" ROWS ONLY");
    }
    return sql.toString();
  }

  /** A query answering one row when some row of {@code query} has a NULL in a key column. */
  String anyNullKey(String query, List<String> key) {
    String condition =
        String.join(" OR ", key.stream().map(column -> column(column) + " IS NULL").toList());
    String sql = "SELECT 1 FROM (" + query + ") dfe_q WHERE " + condition;
    return switch (cap) {
      case LIMIT -> sql + " LIMIT 1";
      case FETCH_FIRST -> sql + " FETCH FIRST 1 ROWS ONLY";
      case OFFSET_FETCH -> sql + " ORDER BY 1 OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY";
    };
  }

  /**
   * Which key value each {@code ?} of {@link #afterKeyCondition} takes, as indexes into the key:
   * {@code [0, 1]} for a row value, {@code [0, 0, 1]} for {@code k1 > ? OR (k1 = ? AND k2 > ?)}.
   */
  List<Integer> afterKeyParameters(int keyColumns) {
    List<Integer> order = new ArrayList<>();
    if (rowValues || keyColumns == 1) {
      for (int i = 0; i < keyColumns; i++) {
        order.add(i);
      }
      return order;
    }
    for (int i = 0; i < keyColumns; i++) {
      for (int j = 0; j < i; j++) {
        order.add(j);
      }
      order.add(i);
    }
    return order;
  }

  private String afterKeyCondition(List<String> key) {
    if (key.size() == 1) {
      return column(key.get(0)) + " > ?";
    }
    if (rowValues) {
      String columns = String.join(", ", key.stream().map(this::column).toList());
      String marks = String.join(", ", key.stream().map(k -> "?").toList());
      return "(" + columns + ") > (" + marks + ")";
    }
    // k1 > ? OR (k1 = ? AND k2 > ?) OR (k1 = ? AND k2 = ? AND k3 > ?) ...
    List<String> alternatives = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      StringBuilder alternative = new StringBuilder();
      for (int j = 0; j < i; j++) {
        alternative.append(column(key.get(j))).append(" = ? AND ");
      }
      alternative.append(column(key.get(i))).append(" > ?");
      alternatives.add(i == 0 ? alternative.toString() : "(" + alternative + ")");
    }
    return "(" + String.join(" OR ", alternatives) + ")";
  }

  private String column(String name) {
    return "dfe_q." + quote(name);
  }
}
