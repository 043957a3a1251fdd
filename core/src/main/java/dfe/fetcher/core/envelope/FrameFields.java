package dfe.fetcher.core.envelope;

/**
 * The fields of the frame line being parsed, as read and before they are checked against the
 * frame's kind, and the head strings of the previous line. Filled by {@link FrameScanner} or by
 * {@link FrameParser}'s token path; a scalar is a String, a Long or a BigInteger, or the Jackson
 * token of a value of another type.
 */
final class FrameFields {

  static final int KIND = 0;
  static final int SNAPSHOT_ID = 1;
  static final int SNAPSHOT_AT = 2;
  static final int TIMESTAMP = 3;
  static final int STORE = 4;

  /**
   * The head strings of the previous frame, by slot: consecutive frames mostly share them, so a
   * value equal to the last one is reused instead of allocated again.
   */
  final String[] recent = new String[5];

  Object kind;
  Object snapshotId;
  Object snapshotAt;
  Object timestamp;
  Object store;
  Object seq;
  Object total;
  Object bytes;
  Object rowKey;
  Object rowCount;
  Object completedAt;
  RawRecord record;

  void clear() {
    kind = snapshotId = snapshotAt = timestamp = store = null;
    seq = total = bytes = rowKey = rowCount = completedAt = null;
    record = null;
  }
}
