package dfe.fetcher.rest;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.construct.UnitReader;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.TemplateWindow;
import dfe.fetcher.rest.profile.WindowSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code shape: tail} endpoint, read in time windows {@code [start, end)}: {@code start} is the
 * checkpoint (the end of the last window landed), or {@code lookback} before now for the first;
 * {@code end} is {@code now - settle}, frozen when the tick starts, at the format's precision. With
 * {@code step} a longer window is cut into several, each committed in turn.
 *
 * <p>Rows carry no mark; each window ends with {@link RowSink#advance} to its end, which the driver
 * commits once every row before it is acknowledged, so an empty window advances too and a window
 * that failed commits nothing and is fetched again next tick. A window's rows may then land twice;
 * none is missed.
 *
 * <p>A window whose pages run out ({@code max_pages} read, more to read) is not fetched again whole
 * forever:
 *
 * <ul>
 *   <li>with {@code window.position_at} (the API orders the listing by that time, ascending), the
 *       window commits its last record's time, cut to the format's precision, and the tick ends;
 *       the next tick starts there, reading again the records of that instant (at least once);
 *   <li>else, when its requests read {@code window.end}, the window is halved and read again, until
 *       a window fits (the rows of the cut attempt land again: at least once);
 *   <li>with a manifest whose items carry a checkpoint ({@code key} and {@code position}), each
 *       item landed was committed as {@code WindowMark(start, item)}: the tick ends, and the next
 *       one reads the window again from its start, requesting only the items after that one;
 *   <li>else (an API bounded only below, without {@code position_at}), or when one instant of the
 *       format still holds more than {@code max_pages} pages, the tick fails as before.
 * </ul>
 */
final class RestWindows implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final String source;
  private final UnitReader reader;
  private final WindowSpec window;
  private final boolean boundedAbove;
  private final boolean listsObjects;
  private final Optional<WindowPosition> position;
  private final Clock clock;

  RestWindows(String source, UnitReader reader, Endpoint endpoint, Clock clock) {
    this.source = source;
    this.reader = reader;
    this.window = endpoint.window().orElseThrow();
    this.boundedAbove = endpoint.placeholders().contains("window.end");
    this.listsObjects = endpoint.lister().isPresent();
    String setting = endpoint.settingsPath() + ".window.position_at";
    this.position =
        window
            .positionAt()
            .map(
                pointer ->
                    new WindowPosition(
                        source,
                        setting,
                        pointer,
                        window.format(),
                        "the last record of the cut window"));
    this.clock = clock;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    Instant now = clock.instant();
    Instant end = window.endAt(now);
    Optional<WindowMark> mark =
        checkpoint.filter(WindowMark.class::isInstance).map(WindowMark.class::cast);
    Instant start = mark.map(WindowMark::end).orElseGet(() -> window.firstStartAt(now));
    // The items an earlier tick landed of the window starting at the checkpoint.
    Optional<WindowMark.Item> resumeAfter = mark.flatMap(WindowMark::after);
    UnitReader.Tick tick = reader.tick();
    Optional<Duration> span = window.step();
    while (start.isBefore(end)) {
      Instant stepEnd = span.map(start::plus).filter(end::isAfter).orElse(end);
      LastRecord last = new LastRecord();
      Instant windowStart = start;
      boolean[] itemLanded = {false};
      Listing.Listed listed =
          tick.read(
              Optional.of(new TemplateWindow(start, stepEnd, window.format())),
              (record, origin) -> {
                last.record = record;
                last.origin = origin;
                sink.row(new Row(record, clock.millis(), Optional.empty(), origin));
              },
              item -> {
                itemLanded[0] = true;
                sink.advance(new WindowMark(windowStart, Optional.of(item)));
              },
              resumeAfter,
              cancellation);
      if (listed.cutShort().isEmpty()) {
        sink.advance(new WindowMark(stepEnd));
        start = stepEnd;
        resumeAfter = Optional.empty();
        continue;
      }
      String cut = listed.cutShort().get();
      if (itemLanded[0]) {
        // Each landed item's checkpoint was committed as it landed: the next tick goes on after
        // the last one.
        LOG.info(
            "event=rest_window_partial unit={} start={} end={} committed=items",
            source,
            window.format().format(start),
            window.format().format(stepEnd));
        return;
      }
      if (listsObjects) {
        throw new SourceException(
            cut
                + "; a lister reads no object of a listing it could not finish (one on a page not"
                + " read may be older than those read): raise max_pages or narrow the prefix");
      }
      if (position.isPresent()) {
        sink.advance(new WindowMark(partialEnd(cut, start, stepEnd, last)));
        return;
      }
      if (!boundedAbove) {
        throw new SourceException(
            cut
                + "; this window's requests read no {{ window.end }}, so a shorter window would"
                + " list the same: set window.position_at to the record's time the API orders"
                + " by, or raise max_pages");
      }
      Duration half = Duration.between(start, stepEnd).dividedBy(2);
      Instant shorter = window.format().truncate(start.plus(half));
      if (!shorter.isAfter(start)) {
        throw new SourceException(
            cut + "; a window of one " + precision() + " still holds more: raise max_pages");
      }
      LOG.info(
          "event=rest_window_halved unit={} start={} end={} now_end={} pages={}",
          source,
          window.format().format(start),
          window.format().format(stepEnd),
          window.format().format(shorter),
          listed.pages());
      span = Optional.of(Duration.between(start, shorter));
    }
  }

  /** Where a window cut short commits: its last record's time, which must lie past its start. */
  private Instant partialEnd(String cut, Instant start, Instant stepEnd, LastRecord last)
      throws SourceException {
    if (last.record == null) {
      throw new SourceException(cut + "; its pages held no record to commit the position of");
    }
    Instant at = window.format().truncate(position.get().of(last.record, last.origin));
    if (at.isAfter(stepEnd)) {
      at = stepEnd;
    }
    if (!at.isAfter(start)) {
      throw new SourceException(
          cut
              + "; its records all carry the time "
              + window.format().format(start)
              + " of the window's start, so committing it would not move on: raise max_pages");
    }
    LOG.info(
        "event=rest_window_partial unit={} start={} end={} committed={}",
        source,
        window.format().format(start),
        window.format().format(stepEnd),
        window.format().format(at));
    return at;
  }

  private String precision() {
    return window.format().truncate(Instant.ofEpochMilli(1)).equals(Instant.EPOCH)
        ? "second"
        : "millisecond";
  }

  /** The last record a window handed on, and its place. */
  private static final class LastRecord {
    RawRecord record;
    String origin;
  }
}
