package dfe.fetcher.core.envelope;

import java.util.Arrays;

/**
 * Writes the row frames of one snapshot with the head encoded once: {@code kind}, {@code
 * snapshot_id}, {@code snapshot_at}, {@code timestamp} and {@code store} never change within a
 * snapshot, so only the seq and the record are written per row. The bytes are exactly those of
 * {@link FrameCodec#encode} for the same row frame.
 *
 * <p>Immutable and thread-safe. {@link #writeOpen} leaves the closing brace out, so the enrichment
 * can append its fields to the same array without copying the frame again.
 */
public final class RowFrameEncoder {

  private static final byte[] RECORD = {',', '"', 'r', 'e', 'c', 'o', 'r', 'd', '"', ':'};

  private final FrameHead head;

  /** The frame up to and including {@code "seq":}. */
  private final byte[] prefix;

  /** An encoder for the row frames whose head is {@code head} at any seq. */
  public RowFrameEncoder(FrameHead head) {
    this.head = head;
    byte[] begin = FrameCodec.encode(new Frame.Row(head.atSeq(0), RawRecord.of("0")));
    // The head ends with "seq":0,"record":0} for this probe; cut at the seq's digit.
    int cut = begin.length - RECORD.length - 3;
    this.prefix = Arrays.copyOf(begin, cut);
  }

  /** Whether a row frame with {@code other} as head can be written by this encoder. */
  public boolean writes(FrameHead other) {
    return sameText(head.snapshotId(), other.snapshotId())
        && sameText(head.snapshotAt(), other.snapshotAt())
        && sameText(head.timestamp(), other.timestamp())
        && sameText(head.store(), other.store());
  }

  /** The length of the frame for {@code seq} and a record of {@code recordLength} bytes. */
  public int length(long seq, int recordLength) {
    return openLength(seq, recordLength) + 1;
  }

  /** {@link #length} without the closing brace. */
  public int openLength(long seq, int recordLength) {
    return prefix.length + AsciiLong.length(seq) + RECORD.length + recordLength;
  }

  /** The whole frame, as {@link FrameCodec#encode} writes it. */
  public byte[] encode(Frame.Row row) {
    byte[] record = row.record().bytes();
    byte[] out = new byte[length(row.head().seq(), record.length)];
    int end = writeOpen(row.head().seq(), record, out, 0);
    out[end] = '}';
    return out;
  }

  /**
   * Writes the frame for {@code seq} and {@code record} at {@code offset}, without its closing
   * brace; returns the index just past what was written.
   */
  public int writeOpen(long seq, byte[] record, byte[] dest, int offset) {
    System.arraycopy(prefix, 0, dest, offset, prefix.length);
    int at = AsciiLong.write(seq, dest, offset + prefix.length);
    System.arraycopy(RECORD, 0, dest, at, RECORD.length);
    at += RECORD.length;
    System.arraycopy(record, 0, dest, at, record.length);
    return at + record.length;
  }

  private static boolean sameText(String a, String b) {
    return a == b || a.equals(b);
  }
}
