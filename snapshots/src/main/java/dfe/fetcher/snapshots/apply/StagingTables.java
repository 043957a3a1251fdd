package dfe.fetcher.snapshots.apply;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The staging tables of one target table, one per snapshot, and their rows in the schema's {@code
 * dfe_fetcher_apply_staging} bookkeeping.
 *
 * <p>Guarantee: staged rows are upserted by seq, so staging a frame twice is harmless.
 */
final class StagingTables {

  private final Connection connection;
  private final SqlNames names;

  StagingTables(TargetTable target) {
    this.connection = target.connection();
    this.names = target.names();
  }

  /**
   * Drops the staging tables of snapshots not newer than {@code heldSnapshotId}: left over from a
   * run that stopped between a swap and its clean-up, or superseded.
   *
   * @return how many were dropped
   */
  int dropNotNewerThan(String heldSnapshotId) throws SQLException {
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
      dropTable(stage);
    }
    return stale.size();
  }

  /** Creates the staging table of {@code snapshotId} unless it exists, and registers it. */
  void create(String snapshotId) throws SQLException {
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

  /**
   * Drops the staging table of {@code snapshotId} and its registration: of a snapshot that will not
   * be swapped in, or, inside the swap's transaction, of the one swapped in.
   */
  void drop(String snapshotId) throws SQLException {
    dropTable(names.stageName(snapshotId));
  }

  private void dropTable(String stage) throws SQLException {
    try (Statement sql = connection.createStatement();
        PreparedStatement unregister =
            connection.prepareStatement(
                "DELETE FROM " + names.staging() + " WHERE stage_table = ?")) {
      sql.execute("DROP TABLE IF EXISTS " + names.qualify(stage));
      unregister.setString(1, stage);
      unregister.executeUpdate();
    }
  }
}
