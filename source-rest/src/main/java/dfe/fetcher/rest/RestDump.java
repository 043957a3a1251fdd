package dfe.fetcher.rest;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.construct.UnitReader;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code shape: dump} endpoint: every page of its listing in one snapshot per tick. The part
 * begins before the first request, so an API that returns nothing lands as begin and end(0), and
 * ends without a position. A listing that cannot be finished (a request that fails after its
 * retries, a loop, {@code max_pages} reached with more to read, {@code fail_when}, any request of
 * its constructs: the prelude, a key's listing, a lookup, an item) is aborted: no {@code end}, so a
 * cut-short dump never looks complete, and the tick is reported failed with the reason.
 */
final class RestDump implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final String source;
  private final UnitReader reader;
  private final Clock clock;

  RestDump(String source, UnitReader reader, Clock clock) {
    this.source = source;
    this.reader = reader;
    this.clock = clock;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    sink.beginPart(OptionalLong.empty());
    int pages;
    try {
      pages =
          reader
              .tick()
              .readAll(
                  (record, origin) -> sink.row(Row.ofDump(record, clock.millis(), origin)),
                  cancellation);
    } catch (SourceException e) {
      // The tick reports the reason once, as event=tick_failed.
      LOG.debug("event=rest_dump_aborted unit={} reason=\"{}\"", source, e.getMessage());
      sink.abortPart(e.getMessage());
      return;
    }
    LOG.debug("rest dump read source={} pages={}", source, pages);
    sink.endPart(Optional.empty());
  }
}
