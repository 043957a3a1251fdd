package dfe.fetcher.core.envelope;

import java.util.Objects;

/**
 * The fields every frame carries, in wire order.
 *
 * <p>Times are kept as the strings that travel, so a parsed frame reports exactly what it carried.
 * {@link SnapshotWriter} fills them with RFC 3339 UTC millisecond timestamps.
 *
 * @param snapshotId the dump this frame belongs to (a UUIDv7 when written by this project)
 * @param snapshotAt when the dump started
 * @param timestamp equal to {@code snapshotAt} on frames this project writes
 * @param store {@code <connection>.<unit>}
 * @param seq the row's position for rows and stubs, 0 for begin, the row count for end
 */
public record FrameHead(
    String snapshotId, String snapshotAt, String timestamp, String store, long seq) {

  public FrameHead {
    requireNonEmpty(snapshotId, "snapshot_id");
    requireNonEmpty(snapshotAt, "snapshot_at");
    requireNonEmpty(timestamp, "timestamp");
    requireNonEmpty(store, "store");
    if (seq < 0) {
      throw new IllegalArgumentException("seq must not be negative, was " + seq);
    }
  }

  /** The same head at another seq. */
  public FrameHead atSeq(long otherSeq) {
    return new FrameHead(snapshotId, snapshotAt, timestamp, store, otherSeq);
  }

  private static void requireNonEmpty(String value, String field) {
    Objects.requireNonNull(value, field);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
  }
}
