package dfe.fetcher.tick;

import dfe.fetcher.enrich.Enrichment;
import dfe.fetcher.enrich.EnrichmentFields;
import dfe.fetcher.envelope.Frame;
import dfe.fetcher.envelope.RawRecord;
import dfe.fetcher.row.RowKey;
import dfe.fetcher.transport.OutboundRecord;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Makes messages of one unit's frames and records: the enrichment fields added, the message key
 * (the store for frames, the row key for incremental records) and the routing headers set.
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

  EnrichmentStage(
      String topic, String sourceName, String store, Clock clock, Optional<RowKey> rowKey) {
    this.topic = topic;
    this.sourceName = sourceName;
    this.store = store;
    this.storeKey = store.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.rowKey = rowKey;
  }

  String topic() {
    return topic;
  }

  /** An envelope frame's message, keyed by store, with kind, snapshot and seq headers. */
  OutboundRecord frame(Frame frame, byte[] encoded, long fetchedAtMillis) {
    byte[] value = Enrichment.enrichFrame(encoded, fields(fetchedAtMillis));
    List<OutboundRecord.Header> headers =
        List.of(
            new OutboundRecord.Header(KIND_HEADER, frame.kind().wireName()),
            new OutboundRecord.Header(SNAPSHOT_HEADER, frame.head().snapshotId()),
            new OutboundRecord.Header(SEQ_HEADER, Long.toString(frame.head().seq())));
    return new OutboundRecord(topic, Optional.of(storeKey), value, headers);
  }

  /** An incremental record's message, keyed by its row key when the unit names one. */
  OutboundRecord record(RawRecord record, long fetchedAtMillis) {
    byte[] value = Enrichment.enrichRecord(record, fields(fetchedAtMillis));
    Optional<byte[]> key =
        rowKey.flatMap(pointer -> pointer.of(record)).map(k -> k.getBytes(StandardCharsets.UTF_8));
    return new OutboundRecord(topic, key, value, List.of());
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
