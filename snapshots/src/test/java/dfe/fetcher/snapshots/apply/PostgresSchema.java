package dfe.fetcher.snapshots.apply;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A schema of its own in the shared PostgreSQL test database (127.0.0.1:5432, database {@code
 * test}, user postgres), dropped with everything in it on close, so concurrent runs never meet.
 */
public final class PostgresSchema implements AutoCloseable {

  public static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

  private final String name;

  private PostgresSchema(String name) {
    this.name = name;
  }

  public static PostgresSchema create() throws SQLException {
    String name = "apply_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection connection = connect();
        Statement sql = connection.createStatement()) {
      sql.execute("CREATE SCHEMA " + name);
    }
    return new PostgresSchema(name);
  }

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, "postgres", "");
  }

  public String name() {
    return name;
  }

  /** {@code schema.table}, as {@code --table} takes it. */
  public String table(String table) {
    return name + "." + table;
  }

  /** The arguments that point {@code apply} at this schema's {@code table}. */
  public List<String> target(String table) {
    return List.of("--to", URL, "--db-property", "user=postgres", "--table", table(table));
  }

  /** {@code id -> record} of every row of {@code table}, ordered by the key column. */
  public Map<String, String> rows(String table) throws SQLException {
    Map<String, String> rows = new LinkedHashMap<>();
    try (Connection connection = connect();
        Statement sql = connection.createStatement();
        ResultSet row =
            sql.executeQuery(
                "SELECT id::text, record::text FROM " + table(table) + " ORDER BY id")) {
      while (row.next()) {
        rows.put(row.getString(1), row.getString(2));
      }
    }
    return rows;
  }

  /** The single value of a query. */
  public String scalar(String query) throws SQLException {
    try (Connection connection = connect();
        Statement sql = connection.createStatement();
        ResultSet row = sql.executeQuery(query.replace("${schema}", name))) {
      return row.next() ? row.getString(1) : null;
    }
  }

  /** The tables of this schema, by name. */
  public List<String> tables() throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection = connect();
        Statement sql = connection.createStatement();
        ResultSet row =
            sql.executeQuery(
                "SELECT tablename FROM pg_tables WHERE schemaname = '" + name + "' ORDER BY 1")) {
      while (row.next()) {
        tables.add(row.getString(1));
      }
    }
    return tables;
  }

  @Override
  public void close() throws SQLException {
    try (Connection connection = connect();
        Statement sql = connection.createStatement()) {
      sql.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }
  }
}
