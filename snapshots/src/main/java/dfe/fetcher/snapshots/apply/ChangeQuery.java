package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.ChangeEvent;
import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;

/**
 * The changes a snapshot's rows make to the target table's: one query joining the two on the key,
 * streamed, each row that differs published as an add, a remove or a change.
 */
final class ChangeQuery {

  private static final int FETCH_SIZE = 2000;

  private final Connection connection;
  private final SqlNames names;
  private final TableColumns columns;

  ChangeQuery(TargetTable target) {
    this.connection = target.connection();
    this.names = target.names();
    this.columns = target.columns();
  }

  /**
   * Publishes every change from the table's rows to {@code projected}'s (as {@link SnapshotSwap}
   * projects the staged rows), then flushes {@code publisher}.
   */
  ChangeCounts publish(String projected, ChangePublisher publisher) throws SQLException {
    String join =
        columns.keyColumns().stream()
            .map(
                c ->
                    "t."
                        + SqlNames.identifier(c.name())
                        + " = s."
                        + SnapshotSwap.projectedColumn(c))
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
    return new ChangeCounts(added, removed, changed);
  }
}
