package dfe.fetcher.snapshots.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The target table in PostgreSQL and its row in the schema's {@code dfe_fetcher_apply} bookkeeping
 * (which snapshot of which store it holds), over one connection. {@link StagingTables} stages a
 * snapshot beside it and {@link SnapshotSwap} swaps one in, over the same connection.
 */
public final class TargetTable implements AutoCloseable {

  /** What the table holds. */
  public record Held(String snapshotId, String store) {}

  private final Connection connection;
  private final SqlNames names;
  private final TableColumns columns;

  private TargetTable(Connection connection, SqlNames names, TableColumns columns) {
    this.connection = connection;
    this.names = names;
    this.columns = columns;
  }

  /**
   * Opens the table over {@code connection}, creating the schema's bookkeeping tables and the
   * target table when absent.
   */
  public static TargetTable open(Connection connection, String table, TableColumns columns)
      throws SQLException {
    TargetTable target = new TargetTable(connection, SqlNames.parse(table), columns);
    connection.setAutoCommit(true);
    try (Statement sql = connection.createStatement()) {
      // A timestamp written without an offset is UTC, not the zone of whoever runs apply (the
      // driver sets the session's zone to the JVM's).
      sql.execute("SET TIME ZONE 'UTC'");
      // Floats print every digit they hold (shortest exact), which CastCheck compares.
      sql.execute("SET extra_float_digits = 3");
    }
    target.create();
    return target;
  }

  /** The name {@link #name} gives {@code table}, known before any connection. */
  public static String keyOf(String table) {
    return SqlNames.parse(table).targetKey();
  }

  public String name() {
    return names.targetKey();
  }

  Connection connection() {
    return connection;
  }

  SqlNames names() {
    return names;
  }

  TableColumns columns() {
    return columns;
  }

  private void create() throws SQLException {
    String columnList =
        columns.columns().stream()
            .map(c -> SqlNames.identifier(c.name()) + " " + c.type() + (c.key() ? " NOT NULL" : ""))
            .collect(Collectors.joining(", "));
    String key =
        columns.keyColumns().stream()
            .map(c -> SqlNames.identifier(c.name()))
            .collect(Collectors.joining(", "));
    try (Statement sql = connection.createStatement()) {
      sql.execute(
          "CREATE TABLE IF NOT EXISTS "
              + names.state()
              + " (target_table text PRIMARY KEY, store text NOT NULL, snapshot_id text NOT NULL,"
              + " row_count bigint NOT NULL, applied_at timestamptz NOT NULL)");
      sql.execute(
          "CREATE TABLE IF NOT EXISTS "
              + names.staging()
              + " (stage_table text PRIMARY KEY, target_table text NOT NULL,"
              + " snapshot_id text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())");
      sql.execute(
          "CREATE TABLE IF NOT EXISTS "
              + names.target()
              + " ("
              + columnList
              + ", "
              + SqlNames.identifier(TableColumns.RECORD)
              + " jsonb NOT NULL, PRIMARY KEY ("
              + key
              + "))");
    }
  }

  /** The snapshot the table holds, when {@code apply} has swapped one in. */
  public Optional<Held> held() throws SQLException {
    try (PreparedStatement sql =
        connection.prepareStatement(
            "SELECT snapshot_id, store FROM "
                + names.state()
                + " WHERE target_table = ? AND row_count >= 0")) {
      sql.setString(1, names.targetKey());
      try (ResultSet row = sql.executeQuery()) {
        return row.next()
            ? Optional.of(new Held(row.getString(1), row.getString(2)))
            : Optional.empty();
      }
    }
  }

  /**
   * Locks this table's state row (creating it empty when absent) until the transaction ends; the
   * snapshot it holds.
   */
  Optional<String> lockHeld() throws SQLException {
    try (PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO "
                    + names.state()
                    + " (target_table, store, snapshot_id, row_count, applied_at)"
                    + " VALUES (?, '', '', -1, now()) ON CONFLICT (target_table) DO NOTHING");
        PreparedStatement lock =
            connection.prepareStatement(
                "SELECT snapshot_id, row_count FROM "
                    + names.state()
                    + " WHERE target_table = ? FOR UPDATE")) {
      insert.setString(1, names.targetKey());
      insert.executeUpdate();
      lock.setString(1, names.targetKey());
      try (ResultSet row = lock.executeQuery()) {
        row.next();
        return row.getLong(2) < 0 ? Optional.empty() : Optional.of(row.getString(1));
      }
    }
  }

  /** Records that the table now holds {@code snapshotId} of {@code store}, of {@code rowCount}. */
  void recordHeld(String snapshotId, String store, long rowCount) throws SQLException {
    try (PreparedStatement state =
        connection.prepareStatement(
            "UPDATE "
                + names.state()
                + " SET store = ?, snapshot_id = ?, row_count = ?, applied_at = now()"
                + " WHERE target_table = ?")) {
      state.setString(1, store);
      state.setString(2, snapshotId);
      state.setLong(3, rowCount);
      state.setString(4, names.targetKey());
      state.executeUpdate();
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
