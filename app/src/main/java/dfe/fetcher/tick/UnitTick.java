package dfe.fetcher.tick;

import dfe.fetcher.checkpoint.CursorStore.CheckpointException;
import dfe.fetcher.enrich.Enrichment;
import dfe.fetcher.enrich.EnrichmentFields;
import dfe.fetcher.envelope.Frame;
import dfe.fetcher.envelope.FrameCodec;
import dfe.fetcher.envelope.RawRecord;
import dfe.fetcher.envelope.SnapshotWriter;
import dfe.fetcher.row.Mark;
import dfe.fetcher.row.Row;
import dfe.fetcher.row.RowKey;
import dfe.fetcher.row.RowSink;
import dfe.fetcher.row.Shape;
import dfe.fetcher.transport.OutboundRecord;
import dfe.fetcher.transport.SendResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tick of one unit: the sink its source pushes into.
 *
 * <p>Per row: envelope (dumps) → oversize check (a stub and a DLQ copy; on an incremental unit the
 * DLQ and skip) → filter (a dropped dump row gives its seq back) → enrichment → batch → transport.
 * Batches are pipelined: up to {@value #MAX_BATCHES_IN_FLIGHT} are in flight, and their
 * acknowledgements are taken in send order. A mark is committed only once every batch before it is
 * acknowledged; a dump part's end frame is sent only once every frame before it was acknowledged,
 * and the part counts complete and its mark is committed only after that end was acknowledged. Any
 * failure propagates out of the sink methods: the runner then calls {@link #abort()}, nothing
 * buffered is sent, and no mark is committed past what was acknowledged.
 */
final class UnitTick implements RowSink {

  private static final Logger LOG = LoggerFactory.getLogger(UnitTick.class);

  static final int MAX_BATCHES_IN_FLIGHT = 8;

  private final TickContext context;
  private final BoundUnit unit;
  private final RowFilterStage filter;
  private final Optional<RowKey> rowKey;
  private final byte[] storeKey;

  private List<OutboundRecord> batch = new ArrayList<>();
  private long batchBytes;
  private long batchStartedAt;
  private Optional<Mark> batchMark = Optional.empty();
  private final Deque<InFlight> inFlight = new ArrayDeque<>();

  private SnapshotWriter writer;
  private long partsCompleted;
  private long recordsLanded;

  /** A batch handed to the transport, and the mark that is safe once it is acknowledged. */
  private record InFlight(
      CompletableFuture<SendResult> acknowledged,
      Optional<Mark> markAfter,
      Map<String, Integer> recordsPerTopic) {}

  UnitTick(TickContext context, BoundUnit unit) {
    this.context = context;
    this.unit = unit;
    this.filter = unit.filter().get();
    this.rowKey = unit.rowKey();
    this.storeKey = unit.store().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void beginPart(OptionalLong total) throws InterruptedException {
    checkNotStopping();
    if (unit.spec().shape() != Shape.DUMP) {
      throw new IllegalStateException(
          "unit " + unit.store() + " is incremental but its source began a dump part");
    }
    if (writer != null) {
      throw new IllegalStateException(
          "unit " + unit.store() + ": a dump part began before the previous one ended");
    }
    writer = SnapshotWriter.open(unit.store(), context.clock(), context.ids());
    Frame.Begin begin = total.isPresent() ? writer.begin(total.getAsLong()) : writer.begin();
    addFrame(begin, FrameCodec.encode(begin), context.clock().millis());
  }

  @Override
  public void row(Row row) throws InterruptedException {
    checkNotStopping();
    if (unit.spec().shape() == Shape.DUMP) {
      dumpRow(row);
    } else {
      incrementalRow(row);
    }
  }

  private void dumpRow(Row row) throws InterruptedException {
    if (writer == null) {
      beginPart(OptionalLong.empty());
    }
    RawRecord record = row.record();
    if (context.oversize().isOversize(record.length())) {
      Optional<String> key = rowKey.flatMap(pointer -> pointer.of(record));
      Frame.Oversize stub =
          key.isPresent()
              ? writer.oversize(record.length(), key.get())
              : writer.oversize(record.length());
      deadLetter(
          context.oversize().reason(record.length()),
          OptionalLong.of(stub.head().seq()),
          context.oversize().dlqCopy(record.bytes()),
          "oversize");
      addFrame(stub, FrameCodec.encode(stub), row.fetchedAtMillis());
      context.metrics().oversizeStub(unit.store());
      return;
    }
    Frame.Row frame = writer.row(record);
    byte[] encoded = FrameCodec.encode(frame);
    if (!filter.keep(encoded)) {
      writer.giveBack(frame);
      context.metrics().filteredOut(unit.store());
      return;
    }
    addFrame(frame, encoded, row.fetchedAtMillis());
    context.metrics().rowFrames(unit.store(), 1);
  }

  private void incrementalRow(Row row) throws InterruptedException {
    RawRecord record = row.record();
    row.mark().ifPresent(mark -> batchMark = Optional.of(mark));
    if (context.oversize().isOversize(record.length())) {
      deadLetter(
          context.oversize().reason(record.length()),
          OptionalLong.empty(),
          context.oversize().dlqCopy(record.bytes()),
          "oversize");
      return;
    }
    if (!filter.keep(record.bytes())) {
      context.metrics().filteredOut(unit.store());
      return;
    }
    byte[] value = Enrichment.enrichRecord(record, enrichment(row.fetchedAtMillis()));
    Optional<byte[]> key =
        rowKey.flatMap(pointer -> pointer.of(record)).map(k -> k.getBytes(StandardCharsets.UTF_8));
    add(new OutboundRecord(unit.topic(), key, value, List.of()));
  }

  @Override
  public void endPart(Mark mark) throws InterruptedException {
    checkNotStopping();
    if (writer == null) {
      beginPart(OptionalLong.empty());
    }
    // Everything before the end must be acknowledged before the end is sent: a batch that fails
    // in the background must never be followed by an end that lands.
    flush();
    awaitAll();
    Frame.End end = writer.end();
    addFrame(end, FrameCodec.encode(end), context.clock().millis());
    batchMark = Optional.of(mark);
    flush();
    awaitAll();
    writer = null;
    partsCompleted++;
    context.metrics().snapshotCompleted(unit.store());
  }

  @Override
  public void advance(Mark mark) throws InterruptedException {
    checkNotStopping();
    batchMark = Optional.of(mark);
    flush();
    awaitAll();
  }

  /** The source returned normally: land what is buffered and commit the last mark. */
  TickOutcome.Succeeded finish() throws InterruptedException {
    if (writer != null) {
      throw new IllegalStateException(
          "unit "
              + unit.store()
              + ": the source returned with a dump part open (snapshot "
              + writer.snapshotId()
              + ")");
    }
    flush();
    awaitAll();
    return new TickOutcome.Succeeded(partsCompleted, recordsLanded);
  }

  /**
   * The tick failed or is stopping: drop what was not sent (an open dump gets no end) and count the
   * open dump as aborted. Batches already in flight may still land; their marks are not committed.
   */
  void abort() {
    batch = new ArrayList<>();
    batchMark = Optional.empty();
    inFlight.clear();
    if (writer != null) {
      context.metrics().snapshotAborted(unit.store());
      writer = null;
    }
  }

  /** The seq the open dump would give its next row, for error messages. */
  OptionalLong openSeq() {
    return writer == null ? OptionalLong.empty() : OptionalLong.of(writer.nextSeq());
  }

  private void addFrame(Frame frame, byte[] encoded, long fetchedAtMillis)
      throws InterruptedException {
    byte[] value = Enrichment.enrichFrame(encoded, enrichment(fetchedAtMillis));
    List<OutboundRecord.Header> headers =
        List.of(
            new OutboundRecord.Header("dfe-kind", frame.kind().wireName()),
            new OutboundRecord.Header("dfe-snapshot-id", frame.head().snapshotId()),
            new OutboundRecord.Header("dfe-seq", Long.toString(frame.head().seq())));
    add(new OutboundRecord(unit.topic(), Optional.of(storeKey), value, headers));
  }

  private EnrichmentFields enrichment(long fetchedAtMillis) {
    return new EnrichmentFields(
        fetchedAtMillis, context.clock().millis(), unit.sourceName(), unit.store());
  }

  private void deadLetter(String reason, OptionalLong seq, byte[] payload, String metricReason)
      throws InterruptedException {
    if (context.deadLetters().isEmpty()) {
      droppedWithoutDeadLetter(seq, metricReason);
      return;
    }
    add(context.deadLetters().get().entry(reason, unit.store(), seq, unit.topic(), payload));
    context.metrics().deadLettered(unit.store(), metricReason);
  }

  private void add(OutboundRecord record) throws InterruptedException {
    if (batch.isEmpty()) {
      batchStartedAt = context.clock().millis();
    }
    batch.add(record);
    batchBytes += record.value().length;
    BatchLimits limits = context.batchLimits();
    if (batch.size() >= limits.maxRows()
        || batchBytes >= limits.maxBytes()
        || context.clock().millis() - batchStartedAt >= limits.lingerMillis()) {
      flush();
    }
  }

  private void flush() throws InterruptedException {
    if (batch.isEmpty()) {
      if (batchMark.isPresent()) {
        // Nothing new to send (every row filtered or skipped): the mark is safe once what is in
        // flight is acknowledged, which a completed future in the queue preserves in order.
        inFlight.add(
            new InFlight(
                CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED),
                batchMark,
                Map.of()));
        batchMark = Optional.empty();
      }
      return;
    }
    Map<String, Integer> perTopic = new HashMap<>();
    for (OutboundRecord record : batch) {
      perTopic.merge(record.topic(), 1, Integer::sum);
    }
    CompletableFuture<SendResult> sent = context.transport().send(batch);
    inFlight.add(new InFlight(sent, batchMark, perTopic));
    batch = new ArrayList<>();
    batchBytes = 0;
    batchMark = Optional.empty();
    while (inFlight.size() > MAX_BATCHES_IN_FLIGHT) {
      completeOldest();
    }
    while (!inFlight.isEmpty() && inFlight.peekFirst().acknowledged().isDone()) {
      completeOldest();
    }
  }

  private void awaitAll() throws InterruptedException {
    while (!inFlight.isEmpty()) {
      completeOldest();
    }
  }

  /** Waits for the oldest batch, sends its refusals to the DLQ, and commits its mark. */
  private void completeOldest() throws InterruptedException {
    InFlight oldest = inFlight.peekFirst();
    SendResult result = acknowledgement(oldest.acknowledged());
    inFlight.removeFirst();
    Map<String, Integer> landed = new HashMap<>(oldest.recordsPerTopic());
    for (SendResult.Refused refusal : result.refused()) {
      landed.merge(refusal.record().topic(), -1, Integer::sum);
    }
    landed.forEach(
        (topic, count) -> {
          recordsLanded += count;
          context.metrics().landed(unit.store(), topic, count);
        });
    if (!result.refused().isEmpty()) {
      deadLetterRefusals(result.refused());
    }
    if (oldest.markAfter().isPresent()) {
      commit(oldest.markAfter().get());
    }
  }

  private void deadLetterRefusals(List<SendResult.Refused> refused) throws InterruptedException {
    if (context.deadLetters().isEmpty()) {
      refused.forEach(refusal -> droppedWithoutDeadLetter(seqHeader(refusal.record()), "refused"));
      return;
    }
    for (SendResult.Refused refusal : refused) {
      if (header(refusal.record(), "dfe-kind").filter("end"::equals).isPresent()) {
        // A refused end would leave the snapshot open behind a committed checkpoint.
        throw new LandingFailedException(
            "unit " + unit.store() + ": the end frame was refused: " + refusal.error(), null);
      }
    }
    List<OutboundRecord> entries = new ArrayList<>();
    for (SendResult.Refused refusal : refused) {
      OutboundRecord record = refusal.record();
      entries.add(
          context
              .deadLetters()
              .get()
              .entry(
                  "transport refused the record: " + refusal.error(),
                  unit.store(),
                  seqHeader(record),
                  record.topic(),
                  context.oversize().dlqCopy(record.value())));
      context.metrics().deadLettered(unit.store(), "refused");
    }
    SendResult result = acknowledgement(context.transport().send(entries));
    if (!result.refused().isEmpty()) {
      throw new IllegalStateException(
          "unit "
              + unit.store()
              + ": the DLQ refused an entry: "
              + result.refused().get(0).error());
    }
  }

  /** With {@code dlq.enabled: false} a dead letter is counted and logged (never its content). */
  private void droppedWithoutDeadLetter(OptionalLong seq, String metricReason) {
    context.metrics().deadLettered(unit.store(), metricReason + "_dropped");
    LOG.warn(
        "event=dead_letter_dropped unit={} seq={} reason={} note=\"dlq.enabled is false\"",
        unit.store(),
        seq.isPresent() ? seq.getAsLong() : "none",
        metricReason);
  }

  private static OptionalLong seqHeader(OutboundRecord record) {
    Optional<String> seq = header(record, "dfe-seq");
    return seq.isPresent() ? OptionalLong.of(Long.parseLong(seq.get())) : OptionalLong.empty();
  }

  private static Optional<String> header(OutboundRecord record, String name) {
    for (OutboundRecord.Header header : record.headers()) {
      if (header.name().equals(name)) {
        return Optional.of(header.value());
      }
    }
    return Optional.empty();
  }

  private SendResult acknowledgement(CompletableFuture<SendResult> future)
      throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable reason = e.getCause() == null ? e : e.getCause();
      if (reason instanceof CompletionException && reason.getCause() != null) {
        reason = reason.getCause();
      }
      throw new LandingFailedException(
          "unit " + unit.store() + ": landing failed: " + reason.getMessage(), reason);
    }
  }

  private void commit(Mark mark) {
    try {
      context.cursors().commit(unit.cursorKey(), mark);
      context.metrics().checkpointCommitted(unit.store());
    } catch (CheckpointException e) {
      throw new LandingFailedException(
          "unit " + unit.store() + ": checkpoint not committed: " + e.getMessage(), e);
    }
  }

  private void checkNotStopping() {
    if (context.stopping().getAsBoolean()) {
      throw new StoppingException();
    }
  }

  /** Landing or committing failed; the tick must stop without an end or a later checkpoint. */
  static final class LandingFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LandingFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The service is stopping: the source must stop pulling rows. */
  static final class StoppingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoppingException() {
      super("the service is stopping", null, false, false);
    }
  }
}
