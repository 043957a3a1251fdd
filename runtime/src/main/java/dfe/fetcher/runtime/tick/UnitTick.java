package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.checkpoint.CursorStore.CheckpointException;
import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.runtime.transport.OutboundRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tick of one unit: the sink its source pushes into, wiring the stages together and checking
 * that the source keeps the {@link RowSink} contract.
 *
 * <p>A dump row goes envelope ({@link EnvelopeStage}: seq, oversize stub, filter give-back) →
 * enrichment ({@link EnrichmentStage}) → acknowledgement ({@link AcknowledgementPipeline}); a
 * stub's DLQ copy and every refused record go through {@link DeadLetterRouter}. a tail row skips
 * the envelope: oversize → DLQ and skipped, filter on the record, enrichment, acknowledgement. A
 * part's end frame is sent only once every frame before it was acknowledged; the part counts
 * complete, and its position is committed, only after the end was acknowledged. Any failure
 * propagates out of the sink methods; the runner then calls {@link #abort()}. What the source
 * passes over is logged ({@code event=file_skipped}) and counted in {@code
 * dfe_fetcher_files_skipped_total}; a part it skips as bad also gets a DLQ entry whose payload is
 * the place (the file's path).
 */
final class UnitTick implements RowSink {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.tick");

  /** How long one wait for an acknowledgement lasts before the tick checks for stop again. */
  static final Duration WAIT_SLICE = Duration.ofMillis(100);

  private final TickContext context;
  private final BoundUnit unit;
  private final UncommittedMarks uncommitted;
  private final BooleanSupplier ending;
  private final FilterStep filter;
  private final EnvelopeStage envelope;
  private final EnrichmentStage enrichment;
  private final DeadLetterRouter deadLetters;
  private final AcknowledgementPipeline pipeline;
  private final List<String> abortedParts = new ArrayList<>();
  private long partsCompleted;

  /** Whether the unit is a resumable dump ({@code resume: by_key}), whose rows carry their keys. */
  private final boolean resumable;

  /** The snapshot the next part continues instead of opening one; set before the source reads. */
  private Optional<DumpResumeMark> resuming = Optional.empty();

  /** A resumable dump's last row key read, for its marks. */
  private Optional<KeysetMark> lastKey = Optional.empty();

  /** Before the last frame of the open resumable dump was handed on: its marks' anchor. */
  private long anchorMillis;

  /**
   * @param cancellation the tick's own: a reload cancels it without stopping the service, and the
   *     tick then takes no more rows and waits no longer, as on a stop
   * @param uncommitted where a mark whose commit failed is kept for the unit's next tick
   */
  UnitTick(
      TickContext context,
      BoundUnit unit,
      Cancellation cancellation,
      UncommittedMarks uncommitted) {
    this.context = context;
    this.unit = unit;
    this.uncommitted = uncommitted;
    this.ending = () -> context.stopping().getAsBoolean() || cancellation.isCancelled();
    this.resumable =
        unit.spec().shape() == Shape.DUMP
            && unit.markKind().equals(Optional.of(Mark.Kind.DUMP_RESUME));
    this.filter = new FilterStep(unit.filter().get(), context.metrics().rowCounters(unit.store()));
    Optional<RowKey> rowKey = unit.rowKey();
    this.envelope =
        new EnvelopeStage(
            unit.store(), context.clock(), context.ids(), context.oversize(), filter, rowKey);
    this.enrichment =
        new EnrichmentStage(unit.topic(), unit.sourceName(), unit.store(), context.clock(), rowKey);
    this.deadLetters =
        new DeadLetterRouter(
            unit.store(),
            context.deadLetters(),
            context.oversize(),
            context.metrics(),
            envelope,
            enrichment,
            context.clock());
    this.pipeline =
        new AcknowledgementPipeline(
            unit.store(),
            context.transport(),
            context.batchLimits(),
            context.clock(),
            ending,
            WAIT_SLICE,
            this::commit,
            deadLetters,
            (topic, count) -> context.metrics().landed(unit.store(), topic, count),
            count -> context.metrics().rowFrames(unit.store(), count));
  }

  @Override
  public void beginPart(OptionalLong total) throws InterruptedException {
    checkNotStopping();
    if (unit.spec().shape() != Shape.DUMP) {
      throw new IllegalStateException(
          "unit " + unit.store() + " is a tail but its source began a dump part");
    }
    // What was sent since the last part ended (a bad file's dead letter) ends a part of its own,
    // so a transactional runtime cannot abort it with the part beginning now.
    pipeline.closeOpenPart();
    if (resuming.isPresent()) {
      // The tick that opened the snapshot sent its begin; this one numbers on where it landed.
      envelope.resume(resuming.get());
      lastKey = resuming.get().lastKey();
      anchorMillis = resuming.get().anchorMillis();
      resuming = Optional.empty();
      return;
    }
    lastKey = Optional.empty();
    anchorMillis = context.clock().millis();
    context.metrics().partBegun(unit.store(), total);
    EnvelopeStage.Enveloped begin = envelope.begin(total);
    pipeline.add(enrichment.frame(begin.frame(), context.clock().millis()));
  }

  /**
   * The next part continues the snapshot {@code mark} names (what landed of it, as {@link
   * SnapshotResumption} read it back) instead of opening one.
   */
  void resumeSnapshot(DumpResumeMark mark) {
    if (!resumable) {
      throw new IllegalStateException("unit " + unit.store() + " is not a resumable dump");
    }
    resuming = Optional.of(mark);
  }

  @Override
  public void row(Row row) throws InterruptedException {
    checkNotStopping();
    if (unit.spec().shape() == Shape.DUMP) {
      dumpRow(row);
    } else {
      tailRow(row);
    }
  }

  private void dumpRow(Row row) throws InterruptedException {
    Optional<String> resumeKey = Optional.empty();
    if (resumable) {
      if (row.mark().isEmpty() || row.mark().get().kind() != Mark.Kind.KEYSET) {
        throw new IllegalStateException(
            "unit " + unit.store() + ": a resumable dump's row must carry its key as its mark");
      }
    } else if (row.mark().isPresent()) {
      throw new IllegalStateException(
          "unit " + unit.store() + ": a dump row carries a mark; a dump's position is its part's");
    }
    if (!envelope.isOpen()) {
      beginPart(OptionalLong.empty());
    }
    if (resumable) {
      KeysetMark key = (KeysetMark) row.mark().get();
      lastKey = Optional.of(key);
      resumeKey = Optional.of(MarkCodec.encodeKey(key));
    }
    Optional<EnvelopeStage.Enveloped> enveloped = envelope.row(row.content());
    if (enveloped.isEmpty()) {
      return; // dropped by the filter, which counted it
    }
    EnvelopeStage.Enveloped frame = enveloped.get();
    if (resumable) {
      anchorMillis = context.clock().millis();
    }
    OutboundRecord message = enrichment.frame(frame.frame(), row.fetchedAtMillis(), resumeKey);
    if (frame.deadLetter().isPresent()) {
      sendDeadLetter(frame.deadLetter().get());
      context.metrics().oversizeStub(unit.store());
      pipeline.add(message);
    } else {
      pipeline.addRowFrame(message);
    }
  }

  /**
   * Lands a tail row (or its dead letter, or nothing when the filter drops it), then gives its mark
   * to the pipeline: the mark covers the row, so it goes with the batch that holds what the row
   * became, never with a batch handed over before it.
   */
  private void tailRow(Row row) throws InterruptedException {
    Optional<Row.NotKept> tooLong = row.content().oversize(context.oversize(), Optional.empty());
    if (tooLong.isPresent()) {
      sendDeadLetter(
          new DeadLetter(
              context.oversize().reason(tooLong.get().bytes()),
              OptionalLong.empty(),
              tooLong.get().dlqCopy(),
              "oversize"));
    } else if (filter.keep(row.record().bytes())) {
      pipeline.add(enrichment.record(row.record(), row.fetchedAtMillis()));
    }
    row.mark().ifPresent(pipeline::markAfterAdded);
  }

  private void sendDeadLetter(DeadLetter letter) throws InterruptedException {
    Optional<OutboundRecord> entry = deadLetters.entry(letter, enrichment.topic());
    if (entry.isPresent()) {
      pipeline.add(entry.get());
    }
  }

  /**
   * A resumable dump read a chunk: where its snapshot stands goes with the current batch, committed
   * once everything so far is acknowledged. Ignored for any other unit, and between parts.
   */
  @Override
  public void chunkRead() throws InterruptedException {
    checkNotStopping();
    if (resumable && envelope.isOpen()) {
      pipeline.markAfterAdded(openMark(false));
    }
  }

  @Override
  public void inputAhead(long bytes) {
    context.metrics().inputAhead(unit.store(), bytes);
  }

  @Override
  public void inputRead(long bytes) {
    context.metrics().inputRead(unit.store(), bytes);
  }

  /**
   * Lands what is buffered and waits for every acknowledgement so far, committing the marks that
   * came with the rows. Not between a dump part's begin and end: a queue is a tail unit.
   */
  @Override
  public void awaitLanded() throws InterruptedException {
    checkNotStopping();
    if (envelope.isOpen()) {
      throw new IllegalStateException(
          "unit " + unit.store() + ": the source waited for its rows to land inside a dump part");
    }
    pipeline.awaitAll();
  }

  private DumpResumeMark openMark(boolean ended) {
    return new DumpResumeMark(
        envelope.snapshotId(),
        envelope.snapshotAt(),
        envelope.nextSeq().getAsLong(),
        lastKey,
        anchorMillis,
        ended);
  }

  @Override
  public void endPart(Optional<Mark> position) throws InterruptedException {
    checkNotStopping();
    if (!envelope.isOpen()) {
      beginPart(OptionalLong.empty());
    }
    if (resumable) {
      // Once the end is acknowledged the snapshot is done: the next tick opens a new one.
      position = Optional.of(openMark(true));
    }
    // Everything before the end must be acknowledged before the end is sent: a batch that fails
    // in the background must never be followed by an end that lands.
    pipeline.awaitAll();
    EnvelopeStage.Enveloped end = envelope.end();
    // The mark and the part's end go with the batch that holds the end frame, whether or not the
    // frame fills it: a runtime that keeps marks on records (Connect) puts the mark on the end.
    pipeline.addPartEnd(enrichment.frame(end.frame(), context.clock().millis()), position);
    pipeline.awaitAll();
    partsCompleted++;
    context.metrics().snapshotCompleted(unit.store());
  }

  @Override
  public void abortPart(String reason) throws InterruptedException {
    checkNotStopping();
    if (envelope.abandon()) {
      context.metrics().snapshotAborted(unit.store());
      pipeline.abandonPart();
    }
    abortedParts.add(reason);
  }

  @Override
  public void skipPart(String place, String reason) throws InterruptedException {
    checkNotStopping();
    if (envelope.abandon()) {
      context.metrics().snapshotAborted(unit.store());
      pipeline.abandonPart();
    }
    LOG.warn(
        "event=file_skipped unit={} file={} reason=bad_file detail=\"{}\"",
        unit.store(),
        place,
        reason);
    context.metrics().fileSkipped(unit.store(), "bad_file");
    sendDeadLetter(
        new DeadLetter(
            "bad file skipped: " + reason,
            OptionalLong.empty(),
            place.getBytes(StandardCharsets.UTF_8),
            "bad_file"));
  }

  @Override
  public void badRecord(String place, String reason, byte[] content) throws InterruptedException {
    checkNotStopping();
    if (unit.spec().shape() != Shape.TAIL) {
      throw new IllegalStateException(
          "unit " + unit.store() + " is a dump but its source passed a bad record at " + place);
    }
    LOG.warn("event=bad_record unit={} place={} reason=\"{}\"", unit.store(), place, reason);
    sendDeadLetter(
        new DeadLetter(
            "bad record at " + place + ": " + reason,
            OptionalLong.empty(),
            context.oversize().dlqCopy(content),
            "bad_record"));
  }

  @Override
  public void skipped(String place, String reason) {
    if (reason.equals("not_settled")) {
      LOG.info("event=file_skipped unit={} file={} reason={}", unit.store(), place, reason);
    } else {
      LOG.warn("event=file_skipped unit={} file={} reason={}", unit.store(), place, reason);
    }
    context.metrics().fileSkipped(unit.store(), reason);
  }

  @Override
  public void advance(Mark mark) throws InterruptedException {
    checkNotStopping();
    if (envelope.isOpen()) {
      // Committing a position past a part without its end would skip that part for good.
      throw new IllegalStateException(
          "unit " + unit.store() + ": the source advanced while a dump part was open");
    }
    pipeline.markAfterAdded(mark);
    pipeline.endsPart();
    pipeline.awaitAll();
  }

  /**
   * The source returned normally: land what is buffered and commit the last mark. The tick failed
   * when the source aborted a part on purpose.
   */
  TickOutcome finish() throws InterruptedException {
    if (envelope.isOpen()) {
      throw new IllegalStateException(
          "unit " + unit.store() + ": the source returned with a dump part open");
    }
    pipeline.endsPart();
    pipeline.awaitAll();
    if (!abortedParts.isEmpty()) {
      String more =
          abortedParts.size() == 1 ? "" : " (and " + (abortedParts.size() - 1) + " more parts)";
      return new TickOutcome.Failed("aborted: " + abortedParts.get(0) + more);
    }
    FilterStep.Report filtered = filter.report();
    return new TickOutcome.Succeeded(
        partsCompleted, pipeline.recordsLanded(), filtered.dropped(), filtered.unjudged());
  }

  /** What the filter did so far in this tick. */
  FilterStep.Report filterReport() {
    return filter.report();
  }

  /**
   * The tick failed or is stopping: drop what was not sent (an open dump gets no end) and count the
   * open dump as aborted. Batches already in flight may still land; their marks are not committed.
   */
  void abort() {
    pipeline.abort();
    if (envelope.abandon()) {
      context.metrics().snapshotAborted(unit.store());
    }
  }

  /** The seq the open dump would give its next row, for error messages. */
  OptionalLong openSeq() {
    return envelope.nextSeq();
  }

  private void commit(Mark mark) {
    try {
      context.cursors().commit(unit.cursorKey(), mark);
      uncommitted.committed(unit.cursorKey());
      context.metrics().checkpointCommitted(unit.store());
    } catch (CheckpointException e) {
      uncommitted.failed(unit.cursorKey(), mark);
      throw new LandingFailedException(
          "unit " + unit.store() + ": checkpoint not committed: " + e.getMessage(), e);
    }
  }

  private void checkNotStopping() {
    if (ending.getAsBoolean()) {
      throw new StoppingException();
    }
  }
}
