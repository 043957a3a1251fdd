package dfe.fetcher.runtime.transport;

import dfe.fetcher.core.row.Mark;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Lands messages on topics.
 *
 * <p>{@link #send} takes a batch and returns at once or after handing it over; the future completes
 * when every record of the batch is acknowledged — durable on the file transport (written and
 * fsynced), acknowledged by the broker on Kafka — or refused as too large (listed in the result).
 * Any other failure completes the future exceptionally with a {@link TransportException}; the
 * caller must then treat every record of the batch as not landed. Batches sent by one caller land
 * in the order they were sent. Implementations are thread-safe.
 */
public interface Transport extends AutoCloseable {

  CompletableFuture<SendResult> send(List<OutboundRecord> batch);

  /**
   * A batch of one unit's messages, with where it stands in the unit's tick: the mark that is safe
   * once it and everything before it are acknowledged, and whether it ends a part (a dump's {@code
   * end}, a position the source advanced to, the tick's last messages). The standalone transports
   * only land the records; a runtime that keeps positions and transactions of its own (Kafka
   * Connect) uses the rest. The batch may be empty when it only carries a mark or a part's end.
   *
   * @param store the unit's store ({@code <connection>.<unit>})
   * @param markCovers how many of the batch's first records the mark covers: all of them, unless
   *     records came after the mark in the same batch (a source that puts a mark on every
   *     thousandth row); a runtime that commits a mark with the last record of a transaction
   *     (Connect, exactly once) ends the transaction at the covered record, so that no record past
   *     the mark is committed with it
   */
  record UnitBatch(
      String store,
      List<OutboundRecord> records,
      Optional<Mark> markAfter,
      boolean endsPart,
      int markCovers) {
    public UnitBatch {
      Objects.requireNonNull(store, "store");
      records = List.copyOf(records);
      Objects.requireNonNull(markAfter, "markAfter");
      if (markCovers < 0 || markCovers > records.size()) {
        throw new IllegalArgumentException(
            "markCovers " + markCovers + " outside 0.." + records.size());
      }
    }

    /** A batch whose mark, if any, covers every record in it. */
    public UnitBatch(
        String store, List<OutboundRecord> records, Optional<Mark> markAfter, boolean endsPart) {
      this(store, records, markAfter, endsPart, records.size());
    }
  }

  /**
   * Whether a mark must arrive with the records it covers: a runtime that keeps marks on records
   * and commits a transaction with the offset of its last record (Connect, exactly once) cannot put
   * a mark that comes alone, after its records were handed over, anywhere safe. The pipeline then
   * holds a full batch until the next message, mark or flush, so that a mark given right after the
   * records reached a limit goes with them. The standalone transports hand every full batch over at
   * once.
   */
  default boolean needsMarksWithTheirRecords() {
    return false;
  }

  /** Lands {@code batch}'s records as {@link #send(List)} does; an empty one is acknowledged. */
  default CompletableFuture<SendResult> send(UnitBatch batch) {
    if (batch.records().isEmpty()) {
      return CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED);
    }
    return send(batch.records());
  }

  /**
   * The unit's tick failed or stopped: what it sent since its last part ended will not be followed
   * by an end or a mark. The standalone transports leave those records as they are (a consumer sees
   * a dump without an end); a transactional runtime aborts them.
   */
  default void abandoned(String store) {}

  /**
   * Whether {@link #landedFrames} can say what landed: a resumable dump ({@code resume: by_key})
   * needs it, and is refused at load on an output that cannot.
   */
  default boolean readsBack() {
    return false;
  }

  /**
   * The frames of snapshot {@code snapshotId} of {@code store} on {@code topic} that landed,
   * whether or not they were acknowledged, from (at least) every frame handed to the transport at
   * or after {@code sinceMillis} to the output's current end, in the order they landed. It may
   * include earlier frames of the snapshot too. Called between ticks, never while the store's own
   * tick sends.
   *
   * @throws TransportException when the output cannot be read back (this one cannot, see {@link
   *     #readsBack}) or did not answer
   */
  default List<LandedFrame> landedFrames(
      String topic, String store, String snapshotId, long sinceMillis) {
    throw new TransportException(
        "the output cannot read back what landed, which a resumable dump (resume: by_key) needs",
        null);
  }

  /** Whether the destination is reachable now; drives {@code /readyz}. */
  boolean isReady();

  /** Releases what the transport holds; records already acknowledged stay landed. */
  @Override
  void close();
}
