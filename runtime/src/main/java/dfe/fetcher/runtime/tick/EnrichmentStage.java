package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.enrich.EnrichedRowFrames;
import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.enrich.EnrichmentFields;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.RowFrameEncoder;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.runtime.transport.LandedFrame;
import dfe.fetcher.runtime.transport.OutboundRecord;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Makes messages of one unit's frames and records: the enrichment fields added, the message key
 * (the store for frames, the row key for tail records) and the routing headers set.
 */
final class EnrichmentStage {

  static final String KIND_HEADER = "dfe-kind";
  static final String SNAPSHOT_HEADER = "dfe-snapshot-id";
  static final String SEQ_HEADER = "dfe-seq";

  private final String topic;
  private final String sourceName;
  private final String store;
  private final byte[] storeKey;
  private final Clock clock;
  private final Optional<RowKey> rowKey;
  private final EnrichedRowFrames rowFrames;
  private RowFrameEncoder rowEncoder;
  // The last tail record's fields, written: records enriched in the same millisecond share them.
  private long lastFetchedAt = Long.MIN_VALUE;
  private long lastReceivedAt = Long.MIN_VALUE;
  private byte[] lastMembers;

  EnrichmentStage(
      String topic, String sourceName, String store, Clock clock, Optional<RowKey> rowKey) {
    this.topic = topic;
    this.sourceName = sourceName;
    this.store = store;
    this.storeKey = store.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.rowKey = rowKey;
    this.rowFrames = new EnrichedRowFrames(sourceName, store);
  }

  String topic() {
    return topic;
  }

  /**
   * An envelope frame's message, keyed by store, with kind, snapshot and seq headers. A row frame
   * is written in one pass into its message (the snapshot's head and the unit's constant members
   * encoded once); any other frame is encoded and enriched, with the same bytes as a result.
   */
  OutboundRecord frame(Frame frame, long fetchedAtMillis) {
    return frame(frame, fetchedAtMillis, Optional.empty());
  }

  /**
   * {@link #frame(Frame, long)} for a resumable dump's row or stub, which also carries its row's
   * key ({@code dfe-resume-key}), so what landed can be read back to where to continue.
   */
  OutboundRecord frame(Frame frame, long fetchedAtMillis, Optional<String> resumeKey) {
    byte[] value;
    if (frame instanceof Frame.Row row) {
      value = rowFrames.enrich(encoderFor(row.head()), row, fetchedAtMillis, clock.millis());
    } else {
      value = Enrichment.enrichFrame(FrameCodec.encode(frame), fields(fetchedAtMillis));
    }
    OutboundRecord.Header kind = new OutboundRecord.Header(KIND_HEADER, frame.kind().wireName());
    OutboundRecord.Header snapshot =
        new OutboundRecord.Header(SNAPSHOT_HEADER, frame.head().snapshotId());
    OutboundRecord.Header seq =
        new OutboundRecord.Header(SEQ_HEADER, Long.toString(frame.head().seq()));
    List<OutboundRecord.Header> headers =
        resumeKey.isEmpty()
            ? List.of(kind, snapshot, seq)
            : List.of(
                kind,
                snapshot,
                seq,
                new OutboundRecord.Header(LandedFrame.RESUME_KEY_HEADER, resumeKey.get()));
    return new OutboundRecord(topic, Optional.of(storeKey), value, headers);
  }

  /** a tail record's message, keyed by its row key when the unit names one. */
  OutboundRecord record(RawRecord record, long fetchedAtMillis) {
    byte[] value = Enrichment.enrichRecord(record, members(fetchedAtMillis, clock.millis()));
    Optional<byte[]> key =
        rowKey.flatMap(pointer -> pointer.of(record)).map(k -> k.getBytes(StandardCharsets.UTF_8));
    return new OutboundRecord(topic, key, value, List.of());
  }

  /** The encoder of the snapshot {@code head} belongs to: one per snapshot, not per row. */
  private RowFrameEncoder encoderFor(FrameHead head) {
    if (rowEncoder == null || !rowEncoder.writes(head)) {
      rowEncoder = new RowFrameEncoder(head);
    }
    return rowEncoder;
  }

  /** The four fields written, as {@link #fields} gives them; the source and store never change. */
  private byte[] members(long fetchedAtMillis, long receivedAtMillis) {
    if (lastMembers == null
        || fetchedAtMillis != lastFetchedAt
        || receivedAtMillis != lastReceivedAt) {
      lastMembers =
          new EnrichmentFields(fetchedAtMillis, receivedAtMillis, sourceName, store).members();
      lastFetchedAt = fetchedAtMillis;
      lastReceivedAt = receivedAtMillis;
    }
    return lastMembers;
  }

  private EnrichmentFields fields(long fetchedAtMillis) {
    return new EnrichmentFields(fetchedAtMillis, clock.millis(), sourceName, store);
  }

  /** The value of header {@code name} of {@code record}, if it has one. */
  static Optional<String> header(OutboundRecord record, String name) {
    for (OutboundRecord.Header header : record.headers()) {
      if (header.name().equals(name)) {
        return Optional.of(header.value());
      }
    }
    return Optional.empty();
  }
}
