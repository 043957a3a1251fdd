package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.ChangeEvent;
import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The target table in PostgreSQL, its staging tables and the bookkeeping beside them, over one
 * connection.
 *
 * <p>Guarantees: staged rows are upserted by seq, so staging a frame twice is harmless; {@link
 * #swap} replaces the table's rows, records which snapshot it now holds, and drops the staging
 * table in one transaction, and only when the snapshot is newer (by id) than the one held, so a
 * reader of the table sees the old snapshot or the new one and never a mix, and an older snapshot
 * never replaces a newer one whatever the order of runs.
 */
public final class TargetTable implements AutoCloseable {

  /** What a swap did. */
  public enum SwapOutcome {
    APPLIED,
    /** The table already holds this snapshot or a newer one. */
    NOT_NEWER,
    /** The rows cannot make the table: a key missing or repeated, a value that does not cast. */
    REFUSED
  }

  /**
   * The result of a swap.
   *
   * @param outcome applied, not newer, or refused
   * @param detail the snapshot the table holds (not newer) or why it was refused
   * @param added keys added, with {@code removed} and {@code changed}: counted when changes are
   *     published, else -1
   */
  public record Swap(SwapOutcome outcome, String detail, long added, long removed, long changed) {}

  /** What the table holds. */
  public record Held(String snapshotId, String store) {}

  private static final int FETCH_SIZE = 2000;

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
    target.create();
    return target;
  }

  public String name() {
    return names.targetKey();
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
   * Drops the staging tables of snapshots not newer than {@code heldSnapshotId}: left over from a
   * run that stopped between a swap and its clean-up, or superseded.
   *
   * @return how many were dropped
   */
  public int dropStagingNotNewerThan(String heldSnapshotId) throws SQLException {
    List<String> stale = new ArrayList<>();
    try (PreparedStatement sql =
        connection.prepareStatement(
            "SELECT stage_table, snapshot_id FROM "
                + names.staging()
                + " WHERE target_table = ?")) {
      sql.setString(1, names.targetKey());
      try (ResultSet row = sql.executeQuery()) {
        while (row.next()) {
          if (SnapshotOrder.compare(row.getString(2), heldSnapshotId) <= 0) {
            stale.add(row.getString(1));
          }
        }
      }
    }
    for (String stage : stale) {
      dropStageTable(stage);
    }
    return stale.size();
  }

  /** Creates the staging table of {@code snapshotId} unless it exists, and registers it. */
  void createStage(String snapshotId) throws SQLException {
    String stage = names.stageName(snapshotId);
    try (PreparedStatement register =
            connection.prepareStatement(
                "INSERT INTO "
                    + names.staging()
                    + " (stage_table, target_table, snapshot_id) VALUES (?, ?, ?)"
                    + " ON CONFLICT (stage_table) DO NOTHING");
        PreparedStatement owner =
            connection.prepareStatement(
                "SELECT snapshot_id FROM " + names.staging() + " WHERE stage_table = ?");
        Statement sql = connection.createStatement()) {
      register.setString(1, stage);
      register.setString(2, names.targetKey());
      register.setString(3, snapshotId);
      register.executeUpdate();
      owner.setString(1, stage);
      try (ResultSet row = owner.executeQuery()) {
        row.next();
        if (!row.getString(1).equals(snapshotId)) {
          throw new SQLException(
              "staging table "
                  + stage
                  + " already holds snapshot "
                  + row.getString(1)
                  + ", not "
                  + snapshotId
                  + " (two snapshot ids share their last 12 digits); drop it to go on");
        }
      }
      // Unlogged: a database crash empties it, and the frames are read again because offsets
      // are committed only past snapshots that were swapped in or dropped.
      sql.execute(
          "CREATE UNLOGGED TABLE IF NOT EXISTS "
              + names.qualify(stage)
              + " (seq bigint PRIMARY KEY, record jsonb NOT NULL)");
    }
  }

  /**
   * Upserts rows by seq into the staging table of {@code snapshotId}, in one statement batch. Each
   * record is parsed into {@code jsonb} here, while the rest of the snapshot is still being read,
   * so the swap copies rows without parsing them and holds its lock for less time.
   */
  void stage(String snapshotId, long[] seqs, byte[][] records, int count) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO "
                + names.qualify(names.stageName(snapshotId))
                + " (seq, record) VALUES (?, ?::jsonb) ON CONFLICT (seq) DO NOTHING")) {
      for (int i = 0; i < count; i++) {
        insert.setLong(1, seqs[i]);
        insert.setString(2, new String(records[i], StandardCharsets.UTF_8));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /** Drops the staging table of a snapshot that will not be swapped in. */
  void dropStage(String snapshotId) throws SQLException {
    dropStageTable(names.stageName(snapshotId));
  }

  private void dropStageTable(String stage) throws SQLException {
    try (Statement sql = connection.createStatement();
        PreparedStatement unregister =
            connection.prepareStatement(
                "DELETE FROM " + names.staging() + " WHERE stage_table = ?")) {
      sql.execute("DROP TABLE IF EXISTS " + names.qualify(stage));
      unregister.setString(1, stage);
      unregister.executeUpdate();
    }
  }

  /**
   * Replaces the table's rows with the staged rows of {@code snapshotId}, in one transaction, when
   * it is newer than the snapshot the table holds. With a {@code publisher}, the changes against
   * the rows replaced are published (and flushed) before the transaction commits, so a crash
   * between the two publishes them again rather than never.
   */
  Swap swap(String snapshotId, String store, long rowCount, ChangePublisher publisher)
      throws SQLException {
    String stage = names.qualify(names.stageName(snapshotId));
    connection.setAutoCommit(false);
    boolean committed = false;
    try (Statement sql = connection.createStatement()) {
      Optional<String> held = lockHeld();
      if (held.isPresent() && SnapshotOrder.compare(snapshotId, held.get()) <= 0) {
        connection.rollback();
        committed = true;
        return new Swap(SwapOutcome.NOT_NEWER, held.get(), -1, -1, -1);
      }
      String projected = projected(stage);
      long[] counts = {-1, -1, -1};
      if (publisher != ChangePublisher.NONE) {
        Optional<String> problem = keyProblem(projected);
        if (problem.isPresent()) {
          connection.rollback();
          committed = true;
          return new Swap(SwapOutcome.REFUSED, problem.get(), -1, -1, -1);
        }
        counts = publishChanges(projected, publisher);
      }
      sql.executeUpdate("DELETE FROM " + names.target());
      String columnNames =
          columns.columns().stream()
              .map(c -> SqlNames.identifier(c.name()))
              .collect(Collectors.joining(", "));
      String keyNames =
          columns.columns().stream()
              .map(c -> SqlNames.identifier("k_" + c.name()))
              .collect(Collectors.joining(", "));
      sql.executeUpdate(
          "INSERT INTO "
              + names.target()
              + " ("
              + columnNames
              + ", "
              + SqlNames.identifier(TableColumns.RECORD)
              + ") SELECT "
              + keyNames
              + ", r FROM "
              + projected);
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
      sql.execute("DROP TABLE IF EXISTS " + stage);
      try (PreparedStatement unregister =
          connection.prepareStatement(
              "DELETE FROM " + names.staging() + " WHERE stage_table = ?")) {
        unregister.setString(1, names.stageName(snapshotId));
        unregister.executeUpdate();
      }
      connection.commit();
      committed = true;
      return new Swap(SwapOutcome.APPLIED, "", counts[0], counts[1], counts[2]);
    } catch (SQLException e) {
      connection.rollback();
      committed = true;
      if (isRowsFault(e)) {
        return new Swap(SwapOutcome.REFUSED, reasonOf(e.getMessage()), -1, -1, -1);
      }
      throw e;
    } finally {
      if (!committed) {
        connection.rollback();
      }
      connection.setAutoCommit(true);
    }
  }

  /** Locks this table's state row (creating it empty when absent); the snapshot it holds. */
  private Optional<String> lockHeld() throws SQLException {
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

  /** The staged rows as {@code (k_<column>..., r)}: typed column values and the jsonb record. */
  private String projected(String stage) {
    String values =
        columns.columns().stream()
            .map(c -> c.valueOf("r") + " AS " + SqlNames.identifier("k_" + c.name()))
            .collect(Collectors.joining(", "));
    return "(SELECT "
        + values
        + ", r FROM (SELECT record AS r FROM "
        + stage
        + ") AS cast_rows) AS s";
  }

  /** Why the staged rows cannot make the table (a key missing or repeated), if they cannot. */
  private Optional<String> keyProblem(String projected) throws SQLException {
    List<TableColumns.Column> keys = columns.keyColumns();
    String tuple =
        keys.stream()
            .map(c -> SqlNames.identifier("k_" + c.name()))
            .collect(Collectors.joining(", ", "(", ")"));
    String anyNull =
        keys.stream()
            .map(c -> SqlNames.identifier("k_" + c.name()) + " IS NULL")
            .collect(Collectors.joining(" OR "));
    try (Statement sql = connection.createStatement();
        ResultSet row =
            sql.executeQuery(
                "SELECT count(*), count(DISTINCT "
                    + tuple
                    + "), count(*) FILTER (WHERE "
                    + anyNull
                    + ") FROM "
                    + projected)) {
      row.next();
      if (row.getLong(3) > 0) {
        return Optional.of(
            row.getLong(3) + " rows have no value at " + columns.identity() + ", the key");
      }
      if (row.getLong(1) != row.getLong(2)) {
        return Optional.of(
            (row.getLong(1) - row.getLong(2))
                + " rows repeat another row's key "
                + columns.identity());
      }
      return Optional.empty();
    }
  }

  private long[] publishChanges(String projected, ChangePublisher publisher) throws SQLException {
    String join =
        columns.keyColumns().stream()
            .map(
                c ->
                    "t."
                        + SqlNames.identifier(c.name())
                        + " = s."
                        + SqlNames.identifier("k_" + c.name()))
            .collect(Collectors.joining(" AND "));
    long added = 0;
    long removed = 0;
    long changed = 0;
    try (Statement sql = connection.createStatement()) {
      sql.setFetchSize(FETCH_SIZE);
      try (ResultSet row =
          sql.executeQuery(
              "SELECT t."
                  + SqlNames.identifier(TableColumns.RECORD)
                  + "::text, s.r::text FROM "
                  + names.target()
                  + " AS t FULL JOIN "
                  + projected
                  + " ON "
                  + join
                  + " WHERE t."
                  + SqlNames.identifier(TableColumns.RECORD)
                  + " IS DISTINCT FROM s.r")) {
        while (row.next()) {
          String before = row.getString(1);
          String after = row.getString(2);
          byte[] beforeBytes = before == null ? null : before.getBytes(StandardCharsets.UTF_8);
          byte[] afterBytes = after == null ? null : after.getBytes(StandardCharsets.UTF_8);
          byte[] key =
              columns
                  .identity()
                  .keyOf(RawRecord.of(afterBytes != null ? afterBytes : beforeBytes))
                  .orElseThrow(
                      () ->
                          new SQLException(
                              "a row of "
                                  + names.targetKey()
                                  + " has no key "
                                  + columns.identity()));
          if (beforeBytes == null) {
            publisher.publish(ChangeEvent.added(key, afterBytes));
            added++;
          } else if (afterBytes == null) {
            publisher.publish(ChangeEvent.removed(key, beforeBytes));
            removed++;
          } else {
            publisher.publish(ChangeEvent.changed(key, beforeBytes, afterBytes));
            changed++;
          }
        }
      }
    }
    publisher.flush();
    return new long[] {added, removed, changed};
  }

  /**
   * Whether {@code e} (or a batch's next exception) is the rows' fault rather than the database's:
   * class 22, a data exception (a value that does not cast, a record jsonb cannot hold, such as one
   * with a \\u0000), or 23, an integrity violation (a key missing or repeated).
   */
  static boolean isRowsFault(SQLException e) {
    for (SQLException cause = e; cause != null; cause = cause.getNextException()) {
      String state = cause.getSQLState() == null ? "" : cause.getSQLState();
      if (state.startsWith("22") || state.startsWith("23")) {
        return true;
      }
    }
    return false;
  }

  /** The first line of the server's message, and its detail line when it has one. */
  static String reasonOf(String message) {
    if (message == null) {
      return "";
    }
    String[] lines = message.split("\n");
    String described = lines[0].trim();
    for (String line : lines) {
      if (line.trim().startsWith("Detail:")) {
        described += " (" + line.trim() + ")";
      }
    }
    return described.replace("\"", "'");
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
