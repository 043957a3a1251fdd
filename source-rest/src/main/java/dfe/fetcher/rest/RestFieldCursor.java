package dfe.fetcher.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FieldCursorMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.construct.ItemProgress;
import dfe.fetcher.rest.construct.UnitReader;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.TemplateWindow;
import dfe.fetcher.rest.profile.WindowSpec;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tail endpoint with {@code window.cursor_at}: a record-field cursor, for an API whose listing
 * has no upper time bound (a {@code since} only) or no time filter at all. The checkpoint is not a
 * window's end but the greatest time the unit has landed at that field of its records, and the
 * records landed within {@code cursor_lookback} of it ({@link FieldCursorMark}).
 *
 * <p>Each tick asks from {@code greatest - cursor_lookback} ({@code window.start}; the first tick
 * from {@code lookback} before now) to {@code now - settle} ({@code window.end}, which such an API
 * does not read), reads the listing to its end and lands a record only when its time is past the
 * greatest landed, or within the lookback and not landed before (its identity, the {@code row_key}
 * or a digest of the record, and its time); a record older than the lookback is not landed again.
 * So a listing that returns again what an earlier tick landed lands none of it twice, and a record
 * the API indexed late by less than the lookback still lands. The new checkpoint is advanced once
 * the listing was read whole, and committed after every row before it was acknowledged; a tick that
 * failed commits nothing, and the next lands again what it had landed (at least once, never lost).
 *
 * <p>A listing cut short at {@code max_pages} fails the tick: the API need not list in the field's
 * order, so the greatest time of the pages read may lie past records not yet read.
 */
final class RestFieldCursor implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  /** The records within the lookback a checkpoint remembers at most; the oldest go first. */
  static final int MAX_NEAR = 10_000;

  private final String source;
  private final UnitReader reader;
  private final WindowSpec window;
  private final WindowPosition time;
  private final Optional<String> rowKey;
  private final Clock clock;

  RestFieldCursor(String source, UnitReader reader, Endpoint endpoint, Clock clock) {
    this.source = source;
    this.reader = reader;
    this.window = endpoint.window().orElseThrow();
    String setting = endpoint.settingsPath() + ".window.cursor_at";
    // Read inside the listing, whose errors name the unit already.
    this.time =
        new WindowPosition(
            "", setting, window.cursorAt().orElseThrow(), window.format(), "a record");
    this.rowKey = endpoint.rowKey();
    this.clock = clock;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    Instant now = clock.instant();
    Instant end = window.endAt(now);
    Optional<FieldCursorMark> mark =
        checkpoint.filter(FieldCursorMark.class::isInstance).map(FieldCursorMark.class::cast);
    Duration lookback = window.cursorLookback();
    Instant start =
        window
            .format()
            .truncate(
                mark.map(m -> m.greatest().minus(lookback))
                    .orElseGet(() -> now.minus(window.lookback())));
    Landing landing = new Landing(mark, start);
    Listing.Listed listed =
        reader
            .tick()
            .read(
                Optional.of(new TemplateWindow(start, end, window.format())),
                (record, origin) -> {
                  if (landing.lands(record, origin)) {
                    sink.row(new Row(record, clock.millis(), Optional.empty(), origin));
                  }
                },
                ItemProgress.NONE,
                Optional.empty(),
                cancellation);
    if (listed.cutShort().isPresent()) {
      throw new SourceException(
          listed.cutShort().get()
              + "; a record-field cursor commits only a listing read to its end (the API need not"
              + " list in the order of window.cursor_at): raise max_pages");
    }
    FieldCursorMark next = landing.mark();
    LOG.info(
        "event=rest_field_cursor unit={} from={} greatest={} landed={} skipped={}",
        source,
        window.format().format(start),
        next.greatest(),
        landing.landed,
        landing.skipped);
    sink.advance(next);
  }

  /** What one tick decides of each record, and the checkpoint it leaves. */
  private final class Landing {

    private final Optional<Instant> greatestBefore;
    private final Instant floor;
    private final Set<FieldCursorMark.Landed> seen;
    private final List<FieldCursorMark.Landed> near;
    private Instant greatest;
    long landed;
    long skipped;

    Landing(Optional<FieldCursorMark> mark, Instant start) {
      this.greatestBefore = mark.map(FieldCursorMark::greatest);
      this.floor = greatestBefore.map(g -> g.minus(window.cursorLookback())).orElse(start);
      this.near = new ArrayList<>(mark.map(FieldCursorMark::near).orElse(List.of()));
      this.seen = new HashSet<>(near);
      // Nothing landed yet: the next tick asks from this tick's start, not from a later now.
      this.greatest = greatestBefore.orElse(start);
    }

    boolean lands(RawRecord record, String origin) throws SourceException {
      JsonNode tree = time.tree(record, origin);
      Instant at = time.of(tree, origin);
      FieldCursorMark.Landed identity = new FieldCursorMark.Landed(key(tree, record), at);
      boolean old = greatestBefore.isPresent() && at.isBefore(floor);
      if (old || seen.contains(identity)) {
        skipped++;
        return false;
      }
      seen.add(identity);
      near.add(identity);
      if (at.isAfter(greatest)) {
        greatest = at;
      }
      landed++;
      return true;
    }

    FieldCursorMark mark() {
      Instant keepFrom = greatest.minus(window.cursorLookback());
      List<FieldCursorMark.Landed> kept =
          near.stream()
              .filter(landed -> !landed.at().isBefore(keepFrom))
              .sorted(Comparator.comparing(FieldCursorMark.Landed::at))
              .toList();
      if (kept.size() > MAX_NEAR) {
        LOG.warn(
            "event=rest_field_cursor_near_full unit={} near={} kept={} (records this old listed"
                + " again may land twice: shorten window.cursor_lookback)",
            source,
            kept.size(),
            MAX_NEAR);
        kept = kept.subList(kept.size() - MAX_NEAR, kept.size());
      }
      return new FieldCursorMark(greatest, kept);
    }

    /** The record's {@code row_key} as text, else a digest of its bytes. */
    private String key(JsonNode tree, RawRecord record) {
      if (rowKey.isPresent()) {
        JsonNode value = tree.at(rowKey.get());
        if (!value.isMissingNode() && !value.isNull()) {
          return value.isValueNode() ? value.asText() : value.toString();
        }
      }
      return "sha256:" + digest(record.bytes());
    }
  }

  private static String digest(byte[] bytes) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
