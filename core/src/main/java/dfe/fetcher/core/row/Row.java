package dfe.fetcher.core.row;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.oversize.OversizePolicy;
import java.util.Objects;
import java.util.Optional;

/**
 * One record as a source read it: either the record itself ({@link Whole}) or, for a record longer
 * than the unit's {@code oversize.max_record_bytes} that the source measured without holding it,
 * what the driver needs to stand in for it ({@link NotKept}). The driver turns a {@code NotKept}
 * into exactly what it makes of an oversize {@code Whole}: on a dump an {@code oversize} stub at
 * the next seq plus a DLQ entry, on a tail unit a DLQ entry and nothing landed.
 *
 * @param content the record, or its stand-in
 * @param fetchedAtMillis epoch milliseconds when the source read it ({@code _timestamp_fetcher})
 * @param mark for tail units, the position reached once this row is acknowledged; empty for rows of
 *     a dump, whose position is the part's
 * @param origin where the row came from, for error messages: {@code FILE:LINE}, a URL, a table
 */
public record Row(Content content, long fetchedAtMillis, Optional<Mark> mark, String origin) {

  public Row {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(mark, "mark");
    Objects.requireNonNull(origin, "origin");
  }

  /** A row holding its whole record. */
  public Row(RawRecord record, long fetchedAtMillis, Optional<Mark> mark, String origin) {
    this(new Whole(record), fetchedAtMillis, mark, origin);
  }

  /** A row of a dump, which carries no mark of its own. */
  public static Row ofDump(RawRecord record, long fetchedAtMillis, String origin) {
    return new Row(record, fetchedAtMillis, Optional.empty(), origin);
  }

  /** A dump row whose record was too long to keep. */
  public static Row ofDump(NotKept record, long fetchedAtMillis, String origin) {
    return new Row(record, fetchedAtMillis, Optional.empty(), origin);
  }

  /**
   * The whole record.
   *
   * @throws IllegalStateException when the source did not keep it ({@link #content} is {@link
   *     NotKept}); ask {@link Content#oversize} first
   */
  public RawRecord record() {
    return content.whole();
  }

  /** What a row holds: the record, or the stand-in for one too long to keep. */
  public sealed interface Content permits Whole, NotKept {

    /**
     * The stand-in the driver replaces this record with, when it is oversize under {@code policy};
     * empty when the record is sent as it is. A {@link NotKept} is always oversize.
     */
    Optional<NotKept> oversize(OversizePolicy policy, Optional<RowKey> rowKey);

    /** The record; throws for a {@link NotKept}, whose record nobody holds. */
    RawRecord whole();
  }

  /** The record itself. */
  public record Whole(RawRecord record) implements Content {

    public Whole {
      Objects.requireNonNull(record, "record");
    }

    @Override
    public Optional<NotKept> oversize(OversizePolicy policy, Optional<RowKey> rowKey) {
      if (!policy.isOversize(record.length())) {
        return Optional.empty();
      }
      return Optional.of(
          new NotKept(
              record.length(),
              rowKey.flatMap(key -> key.of(record)),
              policy.dlqCopy(record.bytes())));
    }

    @Override
    public RawRecord whole() {
      return record;
    }
  }

  /**
   * A record longer than {@code max_record_bytes}, measured by the source while it streamed past
   * it; only its first bytes were kept.
   *
   * @param bytes the record's exact length, the stub's {@code bytes}
   * @param rowKey the value at the unit's {@code row_key} when the source found it within the bytes
   *     it read before giving up on keeping the record; empty otherwise
   * @param dlqCopy the record's first {@code max_dlq_bytes} bytes, the DLQ entry's payload; handed
   *     over, not copied
   */
  public record NotKept(long bytes, Optional<String> rowKey, byte[] dlqCopy) implements Content {

    public NotKept {
      Objects.requireNonNull(rowKey, "rowKey");
      Objects.requireNonNull(dlqCopy, "dlqCopy");
      if (bytes < dlqCopy.length) {
        throw new IllegalArgumentException(
            "a record of " + bytes + " bytes cannot have a DLQ copy of " + dlqCopy.length);
      }
    }

    @Override
    public Optional<NotKept> oversize(OversizePolicy policy, Optional<RowKey> ignored) {
      return Optional.of(this);
    }

    @Override
    public RawRecord whole() {
      throw new IllegalStateException(
          "the record (" + bytes + " bytes) was too long to keep; only its stub can be sent");
    }
  }
}
