package dfe.fetcher.core.oversize;

import java.util.Arrays;

/**
 * When a record is too large to send, and how much of it the dead-letter queue keeps.
 *
 * @param maxRecordBytes a record strictly longer than this is oversize ({@code
 *     oversize.max_record_bytes})
 * @param maxDlqBytes the DLQ copy of an oversize record is its first this many bytes ({@code
 *     oversize.max_dlq_bytes})
 */
public record OversizePolicy(long maxRecordBytes, int maxDlqBytes) {

  /** The design's defaults: 921600 and 65536. */
  public static final OversizePolicy DEFAULT = new OversizePolicy(921_600, 65_536);

  public OversizePolicy {
    if (maxRecordBytes < 1) {
      throw new IllegalArgumentException(
          "max_record_bytes must be at least 1, was " + maxRecordBytes);
    }
    if (maxDlqBytes < 0) {
      throw new IllegalArgumentException("max_dlq_bytes must not be negative, was " + maxDlqBytes);
    }
  }

  /** Whether a record of {@code length} bytes must be replaced by a stub. */
  public boolean isOversize(long length) {
    return length > maxRecordBytes;
  }

  /** The first {@code maxDlqBytes} bytes of {@code record}: the copy the DLQ keeps. */
  public byte[] dlqCopy(byte[] record) {
    return Arrays.copyOf(record, Math.min(record.length, maxDlqBytes));
  }

  /** The DLQ reason for an oversize record of {@code length} bytes. */
  public String reason(long length) {
    return "row exceeds max_record_bytes (" + length + " > " + maxRecordBytes + ")";
  }
}
