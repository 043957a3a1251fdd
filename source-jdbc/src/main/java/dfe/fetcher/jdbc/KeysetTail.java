package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
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
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code shape: tail} store: what is new since the checkpoint, read in keyset pages.
 *
 * <p>Each page is the operator's query as a derived table, the rows whose key is greater than the
 * last one read (bound with their own types, {@link KeyValues}), ordered by the key and capped at
 * {@code limit}; at most {@code max_pages_per_tick} pages a tick, stopping at a short page. Every
 * row carries its key as its mark, so the checkpoint is the key of the last row acknowledged and a
 * restart resumes right after it.
 *
 * <p>With {@code settle_secs}, only rows whose first key column is older than the database's own
 * clock less the settle are read: a transaction that commits a lower key after a higher one was
 * read would otherwise be passed by for good (see {@code docs/sources-db.md}).
 */
final class KeysetTail implements RowSource {

  private final OpenDatabase database;
  private final DbStore store;
  private final Clock clock;
  private final String name;
  private final KeysetQuery keyset;

  KeysetTail(OpenDatabase database, DbStore store, Clock clock) {
    this.database = database;
    this.store = store;
    this.clock = clock;
    this.name = database.nameOf(store);
    this.keyset = new KeysetQuery(database, store, name);
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Optional<KeysetMark> after = checkpoint.map(mark -> (KeysetMark) mark);
    keyset.checkKeyWidth(after, "delete the unit's cursor to start over");
    Optional<KeysetMark> from = after;
    StoreTransaction.run(
        database,
        name,
        "the tail query failed",
        cancellation,
        connection -> readPages(connection, from, sink, cancellation));
  }

  private void readPages(
      Connection connection, Optional<KeysetMark> after, RowSink sink, Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    KeysetQuery.KeyColumns keyColumns = keyset.keyColumns(connection, cancellation, "tail");
    List<String> key = keyColumns.labels();
    if (keyColumns.mayBeNull()) {
      keyset.refuseNullKeys(connection, key, cancellation, "tail");
    }
    Optional<Object> cutoff =
        store.settleSecs() > 0
            ? Optional.of(cutoff(connection, keyColumns.firstKind()))
            : Optional.empty();
    Set<KeysetMark> previousPage = Set.of();
    for (int page = 0; page < store.maxPagesPerTick(); page++) {
      cancellation.throwIfCancelled();
      PageRead read = page(connection, key, after, cutoff, previousPage, sink, cancellation);
      if (read.rows() < store.limit()) {
        break;
      }
      after = read.last();
      previousPage = read.keys();
    }
  }

  /** A page's row count, its last key, and every key it held. */
  private record PageRead(int rows, Optional<KeysetMark> last, Set<KeysetMark> keys) {}

  private PageRead page(
      Connection connection,
      List<String> key,
      Optional<KeysetMark> after,
      Optional<Object> cutoff,
      Set<KeysetMark> previousPage,
      RowSink sink,
      Cancellation cancellation)
      throws SQLException, SourceException, InterruptedException {
    Dialect dialect = database.settings().dialect();
    String sql =
        dialect.page(store.query(), key, after.isPresent(), cutoff.isPresent(), store.limit());
    try (PreparedStatement statement =
        connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      statement.setFetchSize(Math.min(store.limit(), Dialect.FETCH_SIZE));
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      int parameter = keyset.bindAfter(statement, after);
      if (cutoff.isPresent()) {
        statement.setObject(parameter, cutoff.get());
      }
      return StoreTransaction.query(
          statement,
          cancellation,
          rows -> {
            Columns columns = Columns.ofQuery(rows, database.settings().dialect(), name);
            int[] keyColumns = keyset.indexes(columns, key);
            RecordWriter writer = new RecordWriter(columns, store.zone(), dialect);
            int count = 0;
            Optional<KeysetMark> last = after;
            Set<KeysetMark> keys = new HashSet<>();
            while (rows.next()) {
              KeysetMark mark = KeyValues.read(rows, columns, keyColumns, dialect);
              if (previousPage.contains(mark)) {
                throw new SourceException(orderDisagrees(mark));
              }
              sink.row(new Row(writer.write(rows), clock.millis(), Optional.of(mark), name));
              keys.add(mark);
              last = Optional.of(mark);
              count++;
            }
            return new PageRead(count, last, keys);
          });
    }
  }

  /**
   * Why a page that returned a key of the page before fails the tick: the database sorts the key
   * one way and compares it another (a MariaDB or MySQL {@code ENUM} or {@code SET} sorts by its
   * index and compares as text), so {@code k > ?} after the last key of a page brings back rows
   * already read and passes over others.
   */
  private String orderDisagrees(KeysetMark mark) {
    return name
        + ": a page returned the key ("
        + String.join(", ", mark.values().stream().map(KeysetMark.Value::text).toList())
        + ") that the page before it held: the database orders the key ("
        + String.join(", ", store.key())
        + ") differently from how it compares it (a MariaDB/MySQL ENUM or SET sorts by its index"
        + " but compares as text), so rows would be read twice and others passed over; key the"
        + " tail on another column, or cast the key to text in the query (CAST(k AS CHAR) AS k)";
  }

  /**
   * The settle cutoff, {@code settle_secs} before the database's clock, in the form the first key
   * column compares with: an instant for a column with a zone; the wall time in the store's {@code
   * zone} (UTC unless it says otherwise) for one without, never the JVM's or the session's zone;
   * the same text as SQLite stores it ({@code yyyy-MM-dd HH:mm:ss}) for a text column.
   */
  private Object cutoff(Connection connection, Columns.Kind keyKind) throws SQLException {
    Instant now = databaseNow(connection);
    Instant cutoff = now.minusSeconds(store.settleSecs());
    Dialect dialect = database.settings().dialect();
    LocalDateTime wall = LocalDateTime.ofInstant(cutoff, store.zone().orElse(ZoneOffset.UTC));
    return switch (keyKind) {
      case TIMESTAMP_WITH_ZONE, TIMESTAMP_WITH_ZONE_OR_INFINITY, TIMESTAMP_WITH_ZONE_OR_ZERO ->
          dialect == Dialect.MYSQL
              // The session's zone is UTC: a TIMESTAMP compares as UTC wall time.
              ? LocalDateTime.ofInstant(cutoff, ZoneOffset.UTC)
              : OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC);
      case TEXT -> wall.format(SQLITE_TEXT);
      default -> wall;
    };
  }

  private static final DateTimeFormatter SQLITE_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /**
   * The database's clock as an instant: a zoned answer as it is; one without a zone (MariaDB's
   * session is UTC, SQLite answers UTC text) as UTC.
   */
  private Instant databaseNow(Connection connection) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT CURRENT_TIMESTAMP")) {
      statement.setQueryTimeout(database.settings().queryTimeoutSecs());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        try {
          OffsetDateTime at = rows.getObject(1, OffsetDateTime.class);
          if (at != null) {
            return at.toInstant();
          }
        } catch (SQLException | RuntimeException notZoned) {
          // A clock without a zone: take its wall time below.
        }
        try {
          LocalDateTime at = rows.getObject(1, LocalDateTime.class);
          if (at != null) {
            return at.toInstant(ZoneOffset.UTC);
          }
        } catch (SQLException | RuntimeException notATimestamp) {
          // SQLite answers with text.
        }
        return LocalDateTime.parse(rows.getString(1).trim().replace(' ', 'T'))
            .toInstant(ZoneOffset.UTC);
      }
    }
  }
}
