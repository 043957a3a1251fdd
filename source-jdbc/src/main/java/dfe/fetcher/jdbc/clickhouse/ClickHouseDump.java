package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.DbStore;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A ClickHouse {@code shape: dump} store: its query streamed into one snapshot per tick. The part
 * begins once the server answered with the header (an empty result lands as begin and end(0)), each
 * row is handed over as it comes off the stream (memory holds two rows, never the result), and the
 * part ends only when the answer ended complete: an exception ClickHouse appends after the first
 * rows (a killed query, {@code max_result_rows} reached) fails the read, so the part gets no {@code
 * end}.
 *
 * <p>{@code count_first} counts in a query of its own before the dump's: ClickHouse has no
 * transaction, so count and rows are two reads, equal only while nothing is inserted between them.
 */
final class ClickHouseDump implements RowSource {

  private final OpenClickHouse clickhouse;
  private final DbStore store;
  private final Clock clock;
  private final String name;

  ClickHouseDump(OpenClickHouse clickhouse, DbStore store, Clock clock) {
    this.clickhouse = clickhouse;
    this.store = store;
    this.clock = clock;
    this.name = clickhouse.nameOf(store);
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    OpenClickHouse.ServerClock server = clickhouse.serverClock(store, cancellation);
    OptionalLong total =
        store.countFirst() ? OptionalLong.of(count(server, cancellation)) : OptionalLong.empty();
    StoreQuery.run(
        clickhouse.http(),
        name,
        "the dump query failed",
        store.query(),
        store.settings(),
        server.zone(),
        cancellation,
        (columns, answer) -> {
          sink.beginPart(total);
          while (answer.next()) {
            sink.row(Row.ofDump(columns.write(answer), clock.millis(), name));
          }
          return null;
        });
    sink.endPart(Optional.empty());
  }

  private long count(OpenClickHouse.ServerClock server, Cancellation cancellation)
      throws SourceException, InterruptedException {
    return StoreQuery.run(
        clickhouse.http(),
        name,
        "the count query failed",
        "SELECT count() AS dfe_count FROM (" + store.query() + "\n)",
        store.settings(),
        server.zone(),
        cancellation,
        (columns, answer) -> {
          if (!answer.next()) {
            throw new SourceException(name + ": the count query answered no row");
          }
          ValueBytes value = columns.scratch();
          value.unescapeField(answer.line(), answer.start(0), answer.end(0));
          long count;
          try {
            count = Long.parseLong(value.text());
          } catch (NumberFormatException e) {
            throw new SourceException(name + ": the count query answered no number");
          }
          while (answer.next()) {
            // read to the end, so an exception after the row is seen
          }
          return count;
        });
  }
}
