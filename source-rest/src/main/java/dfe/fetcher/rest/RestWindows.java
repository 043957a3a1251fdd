package dfe.fetcher.rest;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.WindowSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code shape: tail} endpoint, read in time windows {@code [start, end)}: {@code start} is the
 * checkpoint (the end of the last window landed), or {@code lookback} before now for the first;
 * {@code end} is {@code now - settle}, frozen when the tick starts, at the format's precision. With
 * {@code step} a longer window is cut into several, each committed in turn.
 *
 * <p>Rows carry no mark; each window ends with {@link RowSink#advance} to its end, which the driver
 * commits once every row before it is acknowledged, so an empty window advances too and a window
 * that failed or was cut short (its listing throws) commits nothing and is fetched again next tick.
 * A window's rows may then land twice; none is missed.
 */
final class RestWindows implements RowSource {

  private final Listing listing;
  private final WindowSpec window;
  private final Clock clock;

  RestWindows(Listing listing, WindowSpec window, Clock clock) {
    this.listing = listing;
    this.window = window;
    this.clock = clock;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    Instant now = clock.instant();
    Instant end = window.format().truncate(now.minus(window.settle()));
    Instant start =
        checkpoint
            .filter(WindowMark.class::isInstance)
            .map(mark -> ((WindowMark) mark).end())
            .orElseGet(() -> window.format().truncate(now.minus(window.lookback())));
    while (start.isBefore(end)) {
      Instant stepEnd = window.step().map(start::plus).filter(end::isAfter).orElse(end);
      listing.read(
          Map.of(
              "window.start", window.format().format(start),
              "window.end", window.format().format(stepEnd)),
          (record, origin) -> sink.row(new Row(record, clock.millis(), Optional.empty(), origin)),
          cancellation);
      sink.advance(new WindowMark(stepEnd));
      start = stepEnd;
    }
  }
}
