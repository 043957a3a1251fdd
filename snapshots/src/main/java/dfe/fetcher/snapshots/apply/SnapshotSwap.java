package dfe.fetcher.snapshots.apply;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Swaps a staged snapshot into the target table.
 *
 * <p>Guarantees: {@link #swap} replaces the table's rows, records which snapshot it now holds, and
 * drops the staging table in one transaction, and only when the snapshot is newer (by id) than the
 * one held, so a reader of the table sees the old snapshot or the new one and never a mix, and an
 * older snapshot never replaces a newer one whatever the order of runs. A snapshot a typed column
 * cannot hold, or would hold only changed ({@link CastCheck}), is refused before any row is written
 * or any change published.
 */
final class SnapshotSwap {

  /** What a swap did. */
  enum Outcome {
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
   * @param changes counted when changes are published, else {@link ChangeCounts#NOT_COUNTED}
   */
  record Result(Outcome outcome, String detail, ChangeCounts changes) {}

  private final TargetTable target;
  private final StagingTables staging;
  private final ChangeOutbox changes;
  private final CastCheck casts;
  private final Connection connection;
  private final SqlNames names;
  private final TableColumns columns;

  SnapshotSwap(TargetTable target, StagingTables staging) {
    this.target = target;
    this.staging = staging;
    this.changes = new ChangeOutbox(target);
    this.casts = new CastCheck(target);
    this.connection = target.connection();
    this.names = target.names();
    this.columns = target.columns();
  }

  /**
   * Replaces the table's rows with the staged rows of {@code snapshotId}, in one transaction, when
   * it is newer than the snapshot the table holds. With a {@code publisher}, the changes against
   * the rows replaced are written to the {@link ChangeOutbox} in the same transaction and published
   * once it has committed, so the topic never hears of a swap that did not happen, and a crash
   * between the commit and the publishing leaves them for the next run to publish.
   */
  Result swap(String snapshotId, String store, long rowCount, ChangePublisher publisher)
      throws SQLException {
    String stage = names.qualify(names.stageName(snapshotId));
    connection.setAutoCommit(false);
    boolean committed = false;
    ChangeCounts counts = ChangeCounts.NOT_COUNTED;
    try (Statement sql = connection.createStatement()) {
      Optional<String> held = target.lockHeld();
      if (held.isPresent() && SnapshotOrder.compare(snapshotId, held.get()) <= 0) {
        connection.rollback();
        committed = true;
        return new Result(Outcome.NOT_NEWER, held.get(), ChangeCounts.NOT_COUNTED);
      }
      // Every cast is evaluated before anything is deleted or recorded, so a refusal names the key,
      // pointer and type instead of surfacing as the INSERT's error.
      Optional<String> lossy = casts.problem(stage);
      if (lossy.isPresent()) {
        connection.rollback();
        committed = true;
        return new Result(Outcome.REFUSED, lossy.get(), ChangeCounts.NOT_COUNTED);
      }
      String projected = projected(stage);
      if (publisher != ChangePublisher.NONE) {
        Optional<String> problem = keyProblem(projected);
        if (problem.isPresent()) {
          connection.rollback();
          committed = true;
          return new Result(Outcome.REFUSED, problem.get(), ChangeCounts.NOT_COUNTED);
        }
        counts = changes.record(snapshotId, projected);
      }
      sql.executeUpdate("DELETE FROM " + names.target());
      String columnNames =
          columns.columns().stream()
              .map(c -> SqlNames.identifier(c.name()))
              .collect(Collectors.joining(", "));
      String keyNames =
          columns.columns().stream()
              .map(SnapshotSwap::projectedColumn)
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
      target.recordHeld(snapshotId, store, rowCount);
      staging.drop(snapshotId);
      connection.commit();
      committed = true;
    } catch (SQLException e) {
      connection.rollback();
      committed = true;
      if (RowsFault.isRowsFault(e)) {
        return new Result(
            Outcome.REFUSED, RowsFault.reasonOf(e.getMessage()), ChangeCounts.NOT_COUNTED);
      }
      throw e;
    } finally {
      if (!committed) {
        connection.rollback();
      }
      connection.setAutoCommit(true);
    }
    if (publisher != ChangePublisher.NONE) {
      changes.publishPending(publisher);
    }
    return new Result(Outcome.APPLIED, "", counts);
  }

  /**
   * Publishes the changes of swaps that committed but whose changes the topic never acknowledged (a
   * run killed or failed between the two); before the first swap of a run.
   */
  long publishPending(ChangePublisher publisher) throws SQLException {
    return publisher == ChangePublisher.NONE ? 0 : changes.publishPending(publisher);
  }

  /** The quoted name of {@code column}'s typed value in {@link #projected} rows. */
  static String projectedColumn(TableColumns.Column column) {
    return SqlNames.identifier("k_" + column.name());
  }

  /** The staged rows as {@code (k_<column>..., r)}: typed column values and the jsonb record. */
  private String projected(String stage) {
    String values =
        columns.columns().stream()
            .map(c -> c.valueOf("r") + " AS " + projectedColumn(c))
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
            .map(SnapshotSwap::projectedColumn)
            .collect(Collectors.joining(", ", "(", ")"));
    String anyNull =
        keys.stream().map(c -> projectedColumn(c) + " IS NULL").collect(Collectors.joining(" OR "));
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
}
