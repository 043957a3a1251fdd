package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.ChangeEvent;
import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;

/**
 * The changes a swap makes, kept in the target's schema ({@code dfe_fetcher_apply_changes}) until
 * the changes topic has them: an outbox.
 *
 * <p>{@link #record} computes them (one query joining the table's rows to the snapshot's on the
 * key, each row that differs an add, a remove or a change) and writes them inside the swap's own
 * transaction, so they exist exactly when the swap committed. {@link #publishPending} sends them
 * after the commit and deletes them once the topic has acknowledged every one. A run killed between
 * the commit and the acknowledgement leaves them here, and the next run publishes them before
 * anything else: the topic says what committed swaps did, at least once, and never what a
 * rolled-back swap would have done.
 */
final class ChangeOutbox {

  static final String TABLE = "dfe_fetcher_apply_changes";

  private static final int FETCH_SIZE = 2000;

  private final Connection connection;
  private final SqlNames names;
  private final TableColumns columns;
  private final String outbox;

  ChangeOutbox(TargetTable target) {
    this.connection = target.connection();
    this.names = target.names();
    this.columns = target.columns();
    this.outbox = names.qualify(TABLE);
  }

  /**
   * Writes the changes from the table's rows to {@code projected}'s (as {@link SnapshotSwap}
   * projects the staged rows) as {@code snapshotId}'s; run inside the swap's transaction, before
   * the table's rows are replaced.
   */
  ChangeCounts record(String snapshotId, String projected) throws SQLException {
    create();
    String join =
        columns.keyColumns().stream()
            .map(
                c ->
                    "t."
                        + SqlNames.identifier(c.name())
                        + " = s."
                        + SnapshotSwap.projectedColumn(c))
            .collect(Collectors.joining(" AND "));
    String record = SqlNames.identifier(TableColumns.RECORD);
    try (PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO "
                    + outbox
                    + " (target_table, snapshot_id, before, after) SELECT ?, ?, t."
                    + record
                    + "::text, s.r::text FROM "
                    + names.target()
                    + " AS t FULL JOIN "
                    + projected
                    + " ON "
                    + join
                    + " WHERE t."
                    + record
                    + " IS DISTINCT FROM s.r");
        PreparedStatement count =
            connection.prepareStatement(
                "SELECT count(*) FILTER (WHERE before IS NULL), count(*) FILTER (WHERE after IS"
                    + " NULL), count(*) FILTER (WHERE before IS NOT NULL AND after IS NOT NULL)"
                    + " FROM "
                    + outbox
                    + " WHERE target_table = ? AND snapshot_id = ?")) {
      insert.setString(1, names.targetKey());
      insert.setString(2, snapshotId);
      insert.executeUpdate();
      count.setString(1, names.targetKey());
      count.setString(2, snapshotId);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return new ChangeCounts(row.getLong(1), row.getLong(2), row.getLong(3));
      }
    }
  }

  /**
   * Publishes every change waiting for this table, oldest first, flushes {@code publisher}, and
   * deletes what it published; run outside a transaction. The number published.
   *
   * @throws ChangePublishingException when the topic did not take them (they stay, for next time)
   */
  long publishPending(ChangePublisher publisher) throws SQLException {
    if (!exists()) {
      return 0;
    }
    connection.setAutoCommit(false);
    try (PreparedStatement pending =
            connection.prepareStatement(
                "SELECT n, before, after FROM " + outbox + " WHERE target_table = ? ORDER BY n");
        PreparedStatement delete =
            connection.prepareStatement(
                "DELETE FROM " + outbox + " WHERE target_table = ? AND n <= ?")) {
      pending.setFetchSize(FETCH_SIZE);
      pending.setString(1, names.targetKey());
      long published = 0;
      long last = -1;
      try (ResultSet row = pending.executeQuery()) {
        while (row.next()) {
          last = row.getLong(1);
          publisher.publish(event(row.getString(2), row.getString(3)));
          published++;
        }
      }
      if (published > 0) {
        publisher.flush();
        delete.setString(1, names.targetKey());
        delete.setLong(2, last);
        delete.executeUpdate();
      }
      connection.commit();
      return published;
    } finally {
      connection.rollback();
      connection.setAutoCommit(true);
    }
  }

  private ChangeEvent event(String before, String after) throws SQLException {
    byte[] beforeBytes = before == null ? null : before.getBytes(StandardCharsets.UTF_8);
    byte[] afterBytes = after == null ? null : after.getBytes(StandardCharsets.UTF_8);
    byte[] key =
        columns
            .identity()
            .keyOf(RawRecord.of(afterBytes != null ? afterBytes : beforeBytes))
            .orElseThrow(
                () ->
                    new SQLException(
                        "a row of " + names.targetKey() + " has no key " + columns.identity()));
    if (beforeBytes == null) {
      return ChangeEvent.added(key, afterBytes);
    }
    if (afterBytes == null) {
      return ChangeEvent.removed(key, beforeBytes);
    }
    return ChangeEvent.changed(key, beforeBytes, afterBytes);
  }

  private void create() throws SQLException {
    try (Statement sql = connection.createStatement()) {
      sql.execute(
          "CREATE TABLE IF NOT EXISTS "
              + outbox
              + " (target_table text NOT NULL, n bigserial, snapshot_id text NOT NULL,"
              + " before text, after text, PRIMARY KEY (target_table, n))");
    }
  }

  private boolean exists() throws SQLException {
    try (PreparedStatement sql = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      sql.setString(1, outbox);
      try (ResultSet row = sql.executeQuery()) {
        row.next();
        return row.getBoolean(1);
      }
    }
  }
}
