package dfe.fetcher.rest;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.construct.ItemProgress;
import dfe.fetcher.rest.construct.Queue;
import dfe.fetcher.rest.construct.UnitReader;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code shape: tail} endpoint with {@code construct.queue}: per tick, up to {@code max_pages}
 * pulls, each one request (its answer one page). For each pull, in this order:
 *
 * <ol>
 *   <li>every message's ack id is read at {@code ack_at} and its rows are handed on;
 *   <li>{@link RowSink#awaitLanded} waits until the transport acknowledged every row so far;
 *   <li>only then the pull's ack ids are sent, {@code ack_batch} a request.
 * </ol>
 *
 * A pull with no message ends the tick. Anything that fails before the acknowledgement (a message
 * without an ack id, a row that cannot be shaped, the transport, a stop, a crash) fails the tick
 * with nothing of that pull acknowledged, so the provider delivers it again once its ack deadline
 * passes: at least once, never lost. An acknowledgement that fails fails the tick too; its messages
 * are delivered again and land twice.
 *
 * <p>The unit reads no window and commits no checkpoint: rows carry no mark and {@link
 * RowSink#advance} is never called; where the unit stands is the provider's (what it has not been
 * told is acknowledged), and the checkpoint it is handed is ignored.
 */
final class RestQueue implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final String source;
  private final UnitReader reader;
  private final Queue queue;
  private final int maxPulls;
  private final Clock clock;

  RestQueue(String source, UnitReader reader, Endpoint endpoint, Clock clock) {
    this.source = source;
    this.reader = reader;
    this.queue = endpoint.constructs().queue().orElseThrow();
    this.maxPulls = endpoint.maxPages();
    this.clock = clock;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    UnitReader.Tick tick = reader.tick();
    int messages = 0;
    for (int pull = 1; pull <= maxPulls; pull++) {
      cancellation.throwIfCancelled();
      List<Object> ackIds = new ArrayList<>();
      tick.read(
          Optional.empty(),
          new Listing.RowsOut() {
            @Override
            public void element(RawRecord message, String origin) throws SourceException {
              ackIds.add(queue.ackId(message, origin));
            }

            @Override
            public void row(RawRecord record, String origin) throws InterruptedException {
              sink.row(new Row(record, clock.millis(), Optional.empty(), origin));
            }
          },
          ItemProgress.NONE,
          Optional.empty(),
          cancellation);
      if (ackIds.isEmpty()) {
        LOG.debug("event=rest_queue_read unit={} pulls={} messages={}", source, pull, messages);
        return;
      }
      messages += ackIds.size();
      sink.awaitLanded();
      tick.acknowledge(ackIds, cancellation);
    }
    LOG.debug(
        "event=rest_queue_read unit={} pulls={} messages={} max_pages_reached=true",
        source,
        maxPulls,
        messages);
  }
}
