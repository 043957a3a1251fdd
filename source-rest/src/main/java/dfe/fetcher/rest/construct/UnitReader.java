package dfe.fetcher.rest.construct;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.RestConnection;
import dfe.fetcher.rest.http.RateLimit;
import dfe.fetcher.rest.http.Requester;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.TemplateWindow;
import dfe.fetcher.rest.shape.FoldedRows;
import dfe.fetcher.source.SourceMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An endpoint's listing with its constructs, as a dump or a window reads it: per tick, the {@code
 * prelude} once and the keyset's keys once, both before the first page; then per dump or window,
 * the listing once per key (once without a keyset), its rows through the second stage when there is
 * one; for a queue, its acknowledgements when its reader ({@code RestQueue}) says they may go
 * ({@link Tick#acknowledge}); with a fold, each listing's rows are held and folded once it was read
 * to its end. Every request goes through the unit's requester and rate limit, so the connection's
 * budget, retries, credentials and host checks hold for the constructs' requests as for pages.
 *
 * <p>A failure of any request (a prelude's, the keys', a key's page, a lookup, an item) fails the
 * whole dump or window: what the caller then commits is nothing of it (a dump lands no end, a
 * window does not advance), unless items carry a checkpoint, whose landed items were committed one
 * by one through {@link ItemProgress}.
 */
public final class UnitReader {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final String source;
  private final RestConnection connection;
  private final Endpoint endpoint;
  private final Listing listing;
  private final List<Listing> prelude = new ArrayList<>();
  private final Optional<Listing> keysRequest;
  private final Optional<Listing> stageRequest;
  private final Optional<Listing> ackRequest;

  public UnitReader(
      String source,
      RestConnection connection,
      Endpoint endpoint,
      Requester requester,
      RateLimit rate,
      SourceMetrics metrics) {
    this.source = source;
    this.connection = connection;
    this.endpoint = endpoint;
    Constructs constructs = endpoint.constructs();
    this.listing = new Listing(source, connection, endpoint, requester, rate, metrics);
    for (Prelude request : constructs.prelude()) {
      prelude.add(new Listing(source, connection, request.request(), requester, rate, metrics));
    }
    this.keysRequest =
        constructs
            .keyset()
            .flatMap(Keyset::request)
            .map(request -> new Listing(source, connection, request, requester, rate, metrics));
    this.stageRequest =
        constructs
            .second()
            .map(
                stage ->
                    new Listing(
                        source,
                        connection,
                        stage.request(),
                        requester,
                        rate,
                        metrics,
                        stage.wholeUrlPath()));
    this.ackRequest =
        constructs
            .queue()
            .map(
                queue ->
                    new Listing(source, connection, queue.ackRequest(), requester, rate, metrics));
  }

  /** Whether items carry a checkpoint that a window cut short may commit. */
  public boolean checkpointsItems() {
    return endpoint.constructs().checkpointsItems();
  }

  /** One tick's reading: its prelude and keys are got on its first read, once. */
  public Tick tick() {
    return new Tick();
  }

  /** What one tick reads; not for use by two threads. */
  public final class Tick {

    private List<Map<String, Object>> keys;

    private Tick() {}

    /**
     * Reads a dump whole.
     *
     * @return the pages read (of the listing, every key's)
     * @throws SourceException when a request fails or a listing is cut short
     */
    public int readAll(Listing.RowsOut out, Cancellation cancellation)
        throws SourceException, InterruptedException {
      Listing.Listed listed =
          read(Optional.empty(), out, ItemProgress.NONE, Optional.empty(), cancellation);
      if (listed.cutShort().isPresent()) {
        throw new SourceException(listed.cutShort().get());
      }
      return listed.pages();
    }

    /**
     * Reads one dump or window: every key's listing, through the second stage. A listing cut short
     * ({@code max_pages}, {@code max_items}) ends it there, saying so.
     *
     * @param resumeAfter the last item an earlier tick landed of this window
     */
    public Listing.Listed read(
        Optional<TemplateWindow> window,
        Listing.RowsOut out,
        ItemProgress progress,
        Optional<WindowMark.Item> resumeAfter,
        Cancellation cancellation)
        throws SourceException, InterruptedException {
      start(cancellation);
      int pages = 0;
      for (Map<String, Object> bound : keys) {
        Optional<FoldedRows> folded =
            endpoint.constructs().fold().map(fold -> fold.rows(endpoint.maxPageBytes()));
        Listing.RowsOut landed = folded.isPresent() ? holding(folded.get()) : out;
        Optional<SecondStage.Rows> stage =
            endpoint
                .constructs()
                .second()
                .map(
                    second ->
                        second.open(
                            new StageRun(
                                source,
                                stageRequest.orElseThrow(),
                                connection.vars(),
                                window,
                                bound,
                                landed,
                                progress,
                                resumeAfter,
                                cancellation)));
        Listing.Listed listed;
        try {
          listed =
              listing.readUpToMaxPages(
                  window, bound, stage.isPresent() ? stage.get() : landed, cancellation);
          pages += listed.pages();
          if (listed.cutShort().isEmpty() && stage.isPresent()) {
            stage.get().finish();
          }
        } catch (SourceException e) {
          if (stage.isPresent() && stage.get().cutShort().isPresent()) {
            return new Listing.Listed(pages, stage.get().cutShort());
          }
          throw e;
        }
        if (listed.cutShort().isPresent()) {
          return new Listing.Listed(pages, listed.cutShort());
        }
        if (folded.isPresent()) {
          String place =
              source + (bound.containsKey("key") ? " key " + (keys.indexOf(bound) + 1) : "");
          folded.get().fold(place, row -> out.row(row, place));
        }
      }
      return new Listing.Listed(pages, Optional.empty());
    }

    /** The rows of one listing held for its fold, not handed on. */
    private static Listing.RowsOut holding(FoldedRows folded) {
      return folded::add;
    }

    /**
     * Acknowledges {@code ackIds} (one pull's, landed) with the queue's {@code ack_request}, {@code
     * ack_batch} at a time, in order.
     *
     * @throws SourceException when a request fails (after its retries): the ids of it and of the
     *     batches after it stay unacknowledged, and the provider delivers their messages again
     */
    public void acknowledge(List<Object> ackIds, Cancellation cancellation)
        throws SourceException, InterruptedException {
      Queue queue = endpoint.constructs().queue().orElseThrow();
      List<List<Object>> batches = queue.batches(ackIds);
      for (int i = 0; i < batches.size(); i++) {
        List<Object> batch = batches.get(i);
        try {
          ackRequest.orElseThrow().sendUnread(Map.of("ack_ids", batch), cancellation);
        } catch (SourceException e) {
          throw new SourceException(
              e.getMessage()
                  + " (the "
                  + queue.configPath()
                  + ".ack_request of "
                  + batch.size()
                  + " ack ids, request "
                  + (i + 1)
                  + " of "
                  + batches.size()
                  + "; what it and those after it carry stays unacknowledged, and the provider"
                  + " delivers those messages again)",
              e);
        }
      }
      LOG.debug(
          "event=rest_queue_acknowledged unit={} ack_ids={} requests={}",
          source,
          ackIds.size(),
          batches.size());
    }

    private void start(Cancellation cancellation) throws SourceException, InterruptedException {
      if (keys != null) {
        return;
      }
      for (Listing request : prelude) {
        request.sendUnread(cancellation);
      }
      Optional<Keyset> keyset = endpoint.constructs().keyset();
      if (keyset.isEmpty()) {
        keys = List.of(Map.of());
        return;
      }
      List<Map<String, Object>> bound = new ArrayList<>();
      for (Object key :
          keyset
              .get()
              .keys(
                  source,
                  connection.varsOf(endpoint.unit()),
                  endpoint.unit(),
                  keysRequest,
                  cancellation)) {
        bound.add(Map.of("key", key));
      }
      LOG.debug("event=rest_keyset_read unit={} keys={}", source, bound.size());
      keys = bound;
    }
  }
}
