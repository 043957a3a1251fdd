package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameKind;
import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.runtime.dlq.DeadLetterQueue;
import dfe.fetcher.runtime.transport.LandedFrame;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one unit's dead letters go: the DLQ entry of an oversize row, and what replaces a record
 * the destination refused as too large.
 *
 * <ul>
 *   <li>A refused row frame is replaced by an {@code oversize} stub at the same seq (with the
 *       record's {@code bytes} and {@code row_key}), so its snapshot can still complete; the row's
 *       first {@code max_dlq_bytes} go to the DLQ.
 *   <li>A refused {@code end} fails the tick, whatever {@code dlq.enabled} says: committing the
 *       checkpoint behind it would leave the snapshot open forever and the part never read again.
 *   <li>A refused {@code oversize} stub fails the tick too: its seq would be missing under an end.
 *   <li>Any other refused record (a begin, a tail record) goes to the DLQ.
 * </ul>
 *
 * With {@code dlq.enabled: false} a dead letter is counted ({@code <reason>_dropped}) and logged,
 * never its content.
 */
final class DeadLetterRouter implements AcknowledgementPipeline.Refusals {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.tick");

  private final String store;
  private final Optional<DeadLetterQueue> queue;
  private final OversizePolicy oversize;
  private final TickMetrics metrics;
  private final EnvelopeStage envelope;
  private final EnrichmentStage enrichment;
  private final Clock clock;
  private final FrameParser parser = new FrameParser();

  DeadLetterRouter(
      String store,
      Optional<DeadLetterQueue> queue,
      OversizePolicy oversize,
      TickMetrics metrics,
      EnvelopeStage envelope,
      EnrichmentStage enrichment,
      Clock clock) {
    this.clock = clock;
    this.store = store;
    this.queue = queue;
    this.oversize = oversize;
    this.metrics = metrics;
    this.envelope = envelope;
    this.enrichment = enrichment;
  }

  /** The DLQ entry for {@code letter} bound for {@code destination}; empty when DLQ is off. */
  Optional<OutboundRecord> entry(DeadLetter letter, String destination) {
    if (queue.isEmpty()) {
      dropped(letter.seq(), letter.metricReason());
      return Optional.empty();
    }
    metrics.deadLettered(store, letter.metricReason());
    return Optional.of(
        queue.get().entry(letter.reason(), store, letter.seq(), destination, letter.payload()));
  }

  @Override
  public List<OutboundRecord> replacementsFor(List<SendResult.Refused> refused) {
    for (SendResult.Refused refusal : refused) {
      if (kindOf(refusal.record()).filter(FrameKind.OVERSIZE.wireName()::equals).isPresent()) {
        // A stub is already the smallest form of its row: without it the seq is missing, and an
        // end after it would count a snapshot complete that verifies truncated.
        throw new LandingFailedException(
            "unit "
                + store
                + ": the oversize stub at seq "
                + seqOf(refusal.record()).orElse(-1)
                + " was refused: "
                + refusal.error()
                + "; the snapshot is left without an end",
            null);
      }
      if (kindOf(refusal.record()).filter(FrameKind.END.wireName()::equals).isPresent()) {
        throw new LandingFailedException(
            "unit "
                + store
                + ": the end frame (seq "
                + seqOf(refusal.record()).orElse(-1)
                + ") was refused: "
                + refusal.error()
                + "; the snapshot stays open and the checkpoint is not moved",
            null);
      }
    }
    List<OutboundRecord> replacements = new ArrayList<>();
    for (SendResult.Refused refusal : refused) {
      OutboundRecord record = refusal.record();
      stubFor(record).ifPresent(replacements::add);
      entry(
              new DeadLetter(
                  "transport refused the record: " + refusal.error(),
                  seqOf(record),
                  oversize.dlqCopy(record.value()),
                  "refused"),
              record.topic())
          .ifPresent(replacements::add);
    }
    return replacements;
  }

  /** The stub for a refused row frame, at its seq; empty for anything else. */
  private Optional<OutboundRecord> stubFor(OutboundRecord record) {
    if (kindOf(record).filter(FrameKind.ROW.wireName()::equals).isEmpty()) {
      return Optional.empty();
    }
    Frame frame;
    try {
      frame = parser.parse(record.value());
    } catch (InvalidFrameException e) {
      throw new IllegalStateException(
          "unit " + store + ": a row frame this tick wrote does not parse: " + e.getMessage(), e);
    }
    Frame.Oversize stub = envelope.stubInPlaceOf((Frame.Row) frame);
    metrics.oversizeStub(store);
    // A resumable dump's stub keeps its row's key, so a read-back can continue after it.
    return Optional.of(
        enrichment.frame(
            stub, clock.millis(), EnrichmentStage.header(record, LandedFrame.RESUME_KEY_HEADER)));
  }

  private void dropped(OptionalLong seq, String metricReason) {
    metrics.deadLettered(store, metricReason + "_dropped");
    LOG.warn(
        "event=dead_letter_dropped unit={} seq={} reason={} note=\"dlq.enabled is false\"",
        store,
        seq.isPresent() ? seq.getAsLong() : "none",
        metricReason);
  }

  private static Optional<String> kindOf(OutboundRecord record) {
    return EnrichmentStage.header(record, EnrichmentStage.KIND_HEADER);
  }

  private static OptionalLong seqOf(OutboundRecord record) {
    Optional<String> seq = EnrichmentStage.header(record, EnrichmentStage.SEQ_HEADER);
    return seq.isPresent() ? OptionalLong.of(Long.parseLong(seq.get())) : OptionalLong.empty();
  }
}
