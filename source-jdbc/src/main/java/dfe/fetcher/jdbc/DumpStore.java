package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@code shape: dump} store: its query streamed into one snapshot per tick, in a read-only
 * transaction. The part begins once the query answered (an empty table lands as begin and end(0))
 * and ends without a position: a dump has nothing to resume from.
 *
 * <p>Streaming: autocommit off and a fetch size of {@value Dialect#FETCH_SIZE} (PostgreSQL uses a
 * cursor then, MariaDB fetches in batches, H2 and SQLite stream as they are), so memory holds a
 * fetch's rows, never the table. With {@code count_first} the count runs first in the same
 * transaction at the dialect's snapshot isolation, so count and rows describe one state.
 *
 * <p>The running statement is registered with the tick's cancellation: a stop or a reload cancels
 * it ({@code Statement.cancel}), however long the query would run.
 */
final class DumpStore implements RowSource {

  private final OpenDatabase database;
  private final DbStore store;
  private final Clock clock;
  private final String name;

  DumpStore(OpenDatabase database, DbStore store, Clock clock) {
    this.database = database;
    this.store = store;
    this.clock = clock;
    this.name = database.nameOf(store);
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    StoreTransaction.run(
        database,
        name,
        "the dump query failed",
        cancellation,
        connection -> readIn(connection, sink, cancellation));
  }

  private void readIn(Connection connection, RowSink sink, Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    Dialect dialect = database.settings().dialect();
    if (store.countFirst() && dialect.snapshotIsolation() != Connection.TRANSACTION_NONE) {
      connection.setTransactionIsolation(dialect.snapshotIsolation());
    }
    OptionalLong total = OptionalLong.empty();
    if (store.countFirst()) {
      total = OptionalLong.of(count(connection, dialect, cancellation));
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            store.query(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      statement.setFetchSize(Dialect.FETCH_SIZE);
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      OptionalLong counted = total;
      StoreTransaction.query(
          statement,
          cancellation,
          rows -> {
            RecordWriter writer = writerFor(rows);
            sink.beginPart(counted);
            String origin = name;
            while (rows.next()) {
              sink.row(Row.ofDump(writer.write(rows), clock.millis(), origin));
            }
            return null;
          });
    }
    // A cancelled statement may end as if it had finished (MariaDB's SLEEP returns 1 when killed,
    // a driver may end the rows early): never end a cancelled dump.
    cancellation.throwIfCancelled();
    sink.endPart(Optional.empty());
  }

  private RecordWriter writerFor(ResultSet rows) throws SQLException, SourceException {
    Dialect dialect = database.settings().dialect();
    return new RecordWriter(Columns.ofQuery(rows, dialect, name), store.zone(), dialect);
  }

  private long count(Connection connection, Dialect dialect, Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    try (PreparedStatement statement = connection.prepareStatement(dialect.count(store.query()))) {
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      return StoreTransaction.query(
          statement,
          cancellation,
          rows -> {
            rows.next();
            return rows.getLong(1);
          });
    }
  }
}
