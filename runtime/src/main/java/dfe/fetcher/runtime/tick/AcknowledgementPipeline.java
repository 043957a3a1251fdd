package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * One unit's messages on their way to the transport, and its marks on their way to the cursor
 * store: the acknowledgement pipeline of a tick.
 *
 * <ul>
 *   <li>Batches: a batch is full at {@link BatchLimits#maxRows()} messages, {@link
 *       BatchLimits#maxBytes()} bytes, or once the oldest waited {@link BatchLimits#lingerMillis()}
 *       (checked as messages arrive), and is then handed to the transport; {@link #flush} hands
 *       over whatever is there. A transport that {@linkplain Transport#needsMarksWithTheirRecords()
 *       needs marks with their records} (Connect, exactly once) gets a full batch at the next
 *       message instead, and a mark or a part's end that comes before that goes with it: a mark
 *       never travels alone behind the records it covers.
 *   <li>In-order completion: up to {@value #MAX_BATCHES_IN_FLIGHT} batches are in flight; their
 *       acknowledgements are taken in send order, whatever order the transport completes them in.
 *   <li>Marks: a mark given with {@link #markAfterAdded} is committed once every message added
 *       before it is acknowledged, and never earlier.
 *   <li>Refusals: records a batch's result lists as refused go to {@link Refusals}, in order,
 *       before the batch's mark is committed; the replacements it returns (DLQ entries, stubs) are
 *       sent and acknowledged before that mark too.
 * </ul>
 *
 * <p>Every wait is bounded: it waits in slices of {@code waitSlice} and checks {@code stopping}
 * between them, throwing {@link StoppingException} when it is set. A batch that fails throws {@link
 * LandingFailedException}; after a failure or a stop the caller calls {@link #abort}: nothing
 * buffered is sent, and nothing past what was acknowledged is committed. Not thread-safe: one tick
 * drives it from one thread.
 */
final class AcknowledgementPipeline {

  static final int MAX_BATCHES_IN_FLIGHT = 8;

  /** Commits a mark once everything before it is acknowledged. */
  @FunctionalInterface
  interface Commits {
    void commit(Mark mark);
  }

  /** What to send in place of refused records, or a {@link LandingFailedException}. */
  @FunctionalInterface
  interface Refusals {
    List<OutboundRecord> replacementsFor(List<SendResult.Refused> refused);
  }

  /** Counts messages landed, per topic, as their acknowledgements are taken. */
  @FunctionalInterface
  interface Landed {
    void landed(String topic, int count);
  }

  /** Counts a unit's row frames as their acknowledgements are taken, refused ones excepted. */
  @FunctionalInterface
  interface RowFramesLanded {
    void landed(int count);
  }

  /** A batch handed to the transport, and the mark that is safe once it is acknowledged. */
  private record InFlight(
      CompletableFuture<SendResult> acknowledged,
      Optional<Mark> markAfter,
      Map<String, Integer> recordsPerTopic,
      int rowFrames) {}

  private final String store;
  private final Transport transport;
  private final BatchLimits limits;
  private final Clock clock;
  private final BooleanSupplier stopping;
  private final Duration waitSlice;
  private final Commits commits;
  private final Refusals refusals;
  private final Landed landed;
  private final RowFramesLanded rowFramesLanded;
  private final boolean holdsFullBatches;

  private List<OutboundRecord> batch = new ArrayList<>();
  private long batchBytes;
  private int batchRowFrames;
  private long batchStartedAt;
  private Optional<Mark> batchMark = Optional.empty();
  private int batchMarkCovers;
  private boolean batchEndsPart;
  private boolean batchFull;
  private boolean addedSincePartEnded;
  private final Deque<InFlight> inFlight = new ArrayDeque<>();
  private long recordsLanded;

  AcknowledgementPipeline(
      String store,
      Transport transport,
      BatchLimits limits,
      Clock clock,
      BooleanSupplier stopping,
      Duration waitSlice,
      Commits commits,
      Refusals refusals,
      Landed landed) {
    this(store, transport, limits, clock, stopping, waitSlice, commits, refusals, landed, n -> {});
  }

  AcknowledgementPipeline(
      String store,
      Transport transport,
      BatchLimits limits,
      Clock clock,
      BooleanSupplier stopping,
      Duration waitSlice,
      Commits commits,
      Refusals refusals,
      Landed landed,
      RowFramesLanded rowFramesLanded) {
    this.rowFramesLanded = rowFramesLanded;
    this.store = store;
    this.transport = transport;
    this.limits = limits;
    this.clock = clock;
    this.stopping = stopping;
    this.waitSlice = waitSlice;
    this.commits = commits;
    this.refusals = refusals;
    this.landed = landed;
    this.holdsFullBatches = transport.needsMarksWithTheirRecords();
  }

  /** {@link #add} for a dump's row frame, counted as landed once it is acknowledged. */
  void addRowFrame(OutboundRecord record) throws InterruptedException {
    batchRowFrames++;
    add(record);
  }

  /**
   * Adds a message to the current batch, handing the batch over when a limit is reached (or, when
   * the transport needs marks with their records, at the next message).
   */
  void add(OutboundRecord record) throws InterruptedException {
    if (append(record)) {
      if (holdsFullBatches) {
        batchFull = true;
      } else {
        flush();
      }
    }
  }

  /**
   * Adds a part's last message (a dump's {@code end}) with the mark that is safe once it lands, and
   * hands them over together, whatever the batch limits: a runtime that keeps marks on records
   * (Connect) finds the mark on that message.
   */
  void addPartEnd(OutboundRecord record, Optional<Mark> mark) throws InterruptedException {
    append(record);
    mark.ifPresent(this::markAfterAdded);
    endsPart();
    flush();
  }

  /** Appends to the current batch (after handing over a full one); true when it is full now. */
  private boolean append(OutboundRecord record) throws InterruptedException {
    if (batchFull) {
      flush();
    }
    if (batch.isEmpty()) {
      batchStartedAt = clock.millis();
    }
    batch.add(record);
    addedSincePartEnded = true;
    batchBytes += record.value().length;
    return batch.size() >= limits.maxRows()
        || batchBytes >= limits.maxBytes()
        || clock.millis() - batchStartedAt >= limits.lingerMillis();
  }

  /**
   * {@code mark} is safe to commit once every message added so far, and any added before the
   * current batch is handed over, is acknowledged: it goes with the current batch, a full one
   * included, which tells the transport how many of its records the mark covers.
   */
  void markAfterAdded(Mark mark) {
    batchMark = Optional.of(mark);
    batchMarkCovers = batch.size();
  }

  /**
   * What was added so far ends a part of the unit (a dump's end, a position, the tick's last
   * messages): the transport is told so with the batch that carries them.
   */
  void endsPart() {
    batchEndsPart = true;
  }

  /**
   * The part whose messages were added since the last part ended will have no end: hands them over
   * and tells the transport, which may take them back (a transactional runtime aborts them).
   */
  void abandonPart() throws InterruptedException {
    flush();
    addedSincePartEnded = false;
    transport.abandoned(store);
  }

  /**
   * Hands over what was added since the last part ended as a part of its own, if anything was: what
   * comes next starts after a part's end.
   */
  void closeOpenPart() throws InterruptedException {
    if (addedSincePartEnded) {
      endsPart();
      flush();
    }
  }

  /** Hands the current batch (and its mark) to the transport; takes what has completed since. */
  void flush() throws InterruptedException {
    batchFull = false;
    if (batch.isEmpty()) {
      if (batchMark.isPresent() || batchEndsPart) {
        // Nothing new to send: the mark is safe once what is in flight is acknowledged, which the
        // (at once acknowledged, on the standalone transports) entry in the queue keeps in order.
        inFlight.add(
            new InFlight(
                transport.send(new Transport.UnitBatch(store, List.of(), batchMark, batchEndsPart)),
                batchMark,
                Map.of(),
                0));
        addedSincePartEnded &= !batchEndsPart;
        batchMark = Optional.empty();
        batchEndsPart = false;
      }
    } else {
      Map<String, Integer> perTopic = new HashMap<>();
      for (OutboundRecord record : batch) {
        perTopic.merge(record.topic(), 1, Integer::sum);
      }
      CompletableFuture<SendResult> sent =
          transport.send(
              new Transport.UnitBatch(
                  store,
                  batch,
                  batchMark,
                  batchEndsPart,
                  batchMark.isPresent() ? batchMarkCovers : batch.size()));
      inFlight.add(new InFlight(sent, batchMark, perTopic, batchRowFrames));
      addedSincePartEnded &= !batchEndsPart;
      batch = new ArrayList<>();
      batchBytes = 0;
      batchRowFrames = 0;
      batchMark = Optional.empty();
      batchEndsPart = false;
      while (inFlight.size() > MAX_BATCHES_IN_FLIGHT) {
        completeOldest();
      }
    }
    while (!inFlight.isEmpty() && inFlight.peekFirst().acknowledged().isDone()) {
      completeOldest();
    }
  }

  /** Flushes, then waits until every batch in flight is acknowledged and its mark committed. */
  void awaitAll() throws InterruptedException {
    flush();
    while (!inFlight.isEmpty()) {
      completeOldest();
    }
  }

  /**
   * Drops what was not sent and forgets what is in flight: those batches may still land, but their
   * marks are never committed.
   */
  void abort() {
    batch = new ArrayList<>();
    batchBytes = 0;
    batchRowFrames = 0;
    batchMark = Optional.empty();
    batchEndsPart = false;
    batchFull = false;
    addedSincePartEnded = false;
    inFlight.clear();
    transport.abandoned(store);
  }

  /** Messages acknowledged so far, refused ones excepted. */
  long recordsLanded() {
    return recordsLanded;
  }

  /** Waits for the oldest batch, routes its refusals, and commits its mark. */
  private void completeOldest() throws InterruptedException {
    InFlight oldest = inFlight.peekFirst();
    SendResult result = await(oldest.acknowledged());
    inFlight.removeFirst();
    Map<String, Integer> perTopic = new HashMap<>(oldest.recordsPerTopic());
    int rowFrames = oldest.rowFrames();
    for (SendResult.Refused refusal : result.refused()) {
      perTopic.merge(refusal.record().topic(), -1, Integer::sum);
      if (isRowFrame(refusal.record())) {
        // Replaced by an oversize stub, which is counted as one: not a row frame that landed.
        rowFrames--;
      }
    }
    perTopic.forEach(this::countLanded);
    if (rowFrames > 0) {
      rowFramesLanded.landed(rowFrames);
    }
    if (!result.refused().isEmpty()) {
      sendReplacements(refusals.replacementsFor(result.refused()));
    }
    oldest.markAfter().ifPresent(commits::commit);
  }

  /** Sends replacements on their own and waits for them: they come before the batch's mark. */
  private void sendReplacements(List<OutboundRecord> replacements) throws InterruptedException {
    if (replacements.isEmpty()) {
      return;
    }
    SendResult result =
        await(
            transport.send(new Transport.UnitBatch(store, replacements, Optional.empty(), false)));
    if (!result.refused().isEmpty()) {
      SendResult.Refused refusal = result.refused().get(0);
      throw new LandingFailedException(
          "unit "
              + store
              + ": a replacement for a refused record was refused too (topic "
              + refusal.record().topic()
              + "): "
              + refusal.error(),
          null);
    }
    Map<String, Integer> perTopic = new HashMap<>();
    replacements.forEach(record -> perTopic.merge(record.topic(), 1, Integer::sum));
    perTopic.forEach(this::countLanded);
  }

  /**
   * A refused record that was a dump's row frame, by the kind header the enrichment stage puts
   * first.
   */
  private static boolean isRowFrame(OutboundRecord record) {
    List<OutboundRecord.Header> headers = record.headers();
    return !headers.isEmpty()
        && headers.get(0).name().equals(EnrichmentStage.KIND_HEADER)
        && headers.get(0).value().equals("row");
  }

  private void countLanded(String topic, int count) {
    if (count > 0) {
      recordsLanded += count;
      landed.landed(topic, count);
    }
  }

  /** The batch's result, waiting in slices and giving up when the service stops. */
  private SendResult await(CompletableFuture<SendResult> future) throws InterruptedException {
    while (true) {
      if (stopping.getAsBoolean()) {
        throw new StoppingException();
      }
      try {
        return future.get(waitSlice.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // Not yet: check for stop and wait another slice.
      } catch (ExecutionException e) {
        Throwable reason = e.getCause() == null ? e : e.getCause();
        if (reason instanceof CompletionException && reason.getCause() != null) {
          reason = reason.getCause();
        }
        throw new LandingFailedException(
            "unit " + store + ": landing failed: " + reason.getMessage(), reason);
      }
    }
  }
}
