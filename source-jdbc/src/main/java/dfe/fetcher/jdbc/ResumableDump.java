package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code shape: dump} store with {@code resume: by_key}: the query read in key order in chunks of
 * {@code chunk_rows} ({@code SELECT * FROM (<query>) dfe_q WHERE key > ? ORDER BY key LIMIT n}, the
 * key bound with its own types as a tail's is), each chunk in a read-only transaction of its own,
 * so no transaction stays open for the whole of a huge table.
 *
 * <p>Every row carries its key as its mark and every chunk ends with {@link RowSink#chunkRead}: the
 * driver commits where the snapshot stands once the chunk is acknowledged. Handed an open {@link
 * DumpResumeMark}, the read continues after its last key (the driver has already set it to what
 * landed) and the driver continues that snapshot; an ended mark, or none, starts a new one. The
 * part ends, without a position of its own, after the first chunk shorter than {@code chunk_rows}.
 *
 * <p>The chunks are read at different times, so a resumed snapshot is not one state of the table: a
 * row changed behind the key already read lands as it was, one ahead of it as it is. {@code
 * count_first} counts when the snapshot opens and is an estimate of its rows.
 */
final class ResumableDump implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.jdbc");

  private final OpenDatabase database;
  private final DbStore store;
  private final Clock clock;
  private final String name;
  private final KeysetQuery keyset;

  ResumableDump(OpenDatabase database, DbStore store, Clock clock) {
    this.database = database;
    this.store = store;
    this.clock = clock;
    this.name = database.nameOf(store);
    this.keyset = new KeysetQuery(database, store, name);
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Optional<DumpResumeMark> open =
        checkpoint.map(DumpResumeMark.class::cast).filter(mark -> !mark.ended());
    Optional<KeysetMark> after = open.flatMap(DumpResumeMark::lastKey);
    keyset.checkKeyWidth(after, "delete the unit's cursor to start a new snapshot");
    Prepared prepared = prepare(open.isEmpty(), cancellation);
    sink.beginPart(prepared.total());
    boolean more = true;
    while (more) {
      cancellation.throwIfCancelled();
      Chunk chunk = chunk(prepared.key(), after, sink, cancellation);
      if (chunk.rows() > 0) {
        sink.chunkRead();
        LOG.info(
            "event=dump_chunk_read unit={} rows={} resumed={}",
            name,
            chunk.rows(),
            open.isPresent());
      }
      more = chunk.rows() == store.chunkRows();
      after = chunk.last();
    }
    cancellation.throwIfCancelled();
    sink.endPart(Optional.empty());
  }

  /** The key as the result labels it, and the count when the snapshot opens with one. */
  private record Prepared(List<String> key, OptionalLong total) {}

  private Prepared prepare(boolean opensSnapshot, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Prepared[] prepared = new Prepared[1];
    StoreTransaction.run(
        database,
        name,
        "the dump query failed",
        cancellation,
        connection -> {
          KeysetQuery.KeyColumns columns =
              keyset.keyColumns(connection, cancellation, "resumable dump");
          if (columns.mayBeNull()) {
            keyset.refuseNullKeys(connection, columns.labels(), cancellation, "resumable dump");
          }
          OptionalLong total = OptionalLong.empty();
          if (opensSnapshot && store.countFirst()) {
            total = OptionalLong.of(count(connection, cancellation));
          }
          prepared[0] = new Prepared(columns.labels(), total);
        });
    return prepared[0];
  }

  private record Chunk(int rows, Optional<KeysetMark> last) {}

  private Chunk chunk(
      List<String> key, Optional<KeysetMark> after, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Chunk[] read = new Chunk[1];
    StoreTransaction.run(
        database,
        name,
        "the dump query failed",
        cancellation,
        connection -> read[0] = chunkIn(connection, key, after, sink, cancellation));
    // A cancelled statement may end as if it had finished: never take a short chunk for the last.
    cancellation.throwIfCancelled();
    return read[0];
  }

  private Chunk chunkIn(
      Connection connection,
      List<String> key,
      Optional<KeysetMark> after,
      RowSink sink,
      Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    Dialect dialect = database.settings().dialect();
    String sql = dialect.page(store.query(), key, after.isPresent(), false, store.chunkRows());
    try (PreparedStatement statement =
        connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      statement.setFetchSize(Math.min(store.chunkRows(), Dialect.FETCH_SIZE));
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      keyset.bindAfter(statement, after);
      return StoreTransaction.query(
          statement,
          cancellation,
          rows -> {
            Columns columns = Columns.ofQuery(rows, dialect, name);
            int[] keyColumns = keyset.indexes(columns, key);
            RecordWriter writer = new RecordWriter(columns, store.zone(), dialect);
            int count = 0;
            Optional<KeysetMark> last = after;
            while (rows.next()) {
              KeysetMark mark = KeyValues.read(rows, columns, keyColumns, dialect);
              sink.row(new Row(writer.write(rows), clock.millis(), Optional.of(mark), name));
              last = Optional.of(mark);
              count++;
            }
            return new Chunk(count, last);
          });
    }
  }

  private long count(Connection connection, Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    try (PreparedStatement statement =
        connection.prepareStatement(database.settings().dialect().count(store.query()))) {
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
