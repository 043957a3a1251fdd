package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import java.io.OutputStream;
import java.io.Writer;
import java.util.Arrays;
import java.util.Optional;

/**
 * The bytes of the record a decoder is producing, written once and never held beyond a bound: the
 * first {@code max(max_record_bytes, max_dlq_bytes)} bytes are kept, the rest only counted. What
 * comes out is the whole record when it fit, otherwise a {@link Row.NotKept} with the exact length,
 * the first {@code max_dlq_bytes} bytes, and the {@code row_key} when its value lies within the
 * kept bytes. One instance per reader, {@link #reset} between records.
 */
final class RecordBytes extends OutputStream {

  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();

  /** Chars escaped at a time when a long JSON string is written past the generator. */
  private static final int CHUNK_CHARS = 8 * 1024;

  private final OversizePolicy policy;
  private final Optional<RowKey> rowKey;
  private final int keep;
  private byte[] kept = new byte[1024];
  private int keptLength;
  private long length;

  RecordBytes(OversizePolicy policy, Optional<RowKey> rowKey) {
    this.policy = policy;
    this.rowKey = rowKey;
    // An array cannot be longer; a record past it is measured, never held.
    this.keep =
        (int)
            Math.min(
                Math.max(policy.maxRecordBytes(), policy.maxDlqBytes()), Integer.MAX_VALUE - 16);
  }

  OversizePolicy policy() {
    return policy;
  }

  /** Starts the next record. */
  void reset() {
    keptLength = 0;
    length = 0;
  }

  @Override
  public void write(int b) {
    if (keptLength < keep) {
      ensureRoom(1);
      kept[keptLength++] = (byte) b;
    }
    length++;
  }

  @Override
  public void write(byte[] bytes, int offset, int count) {
    int keeping = (int) Math.min(count, (long) keep - keptLength);
    if (keeping > 0) {
      ensureRoom(keeping);
      System.arraycopy(bytes, offset, kept, keptLength, keeping);
      keptLength += keeping;
    }
    length += count;
  }

  /** Counts {@code count} more bytes of the record that are not kept. */
  void skip(long count) {
    length += count;
  }

  /** Forgets the last {@code count} bytes written (trailing whitespace of a line). */
  void dropLast(long count) {
    length -= count;
    keptLength = (int) Math.min(keptLength, length);
  }

  long length() {
    return length;
  }

  /** Whether every byte written so far is kept. */
  boolean isWhole() {
    return length == keptLength;
  }

  /** The kept bytes; valid up to {@link #keptLength()} until the next write. */
  byte[] keptBytes() {
    return kept;
  }

  int keptLength() {
    return keptLength;
  }

  /** The record as a row holds it: whole when it was kept, its stand-in otherwise. */
  Row.Content content() {
    if (isWhole()) {
      return new Row.Whole(RawRecord.of(Arrays.copyOf(kept, keptLength)));
    }
    return new Row.NotKept(
        length,
        rowKey.flatMap(key -> key.ofPrefix(kept, keptLength)),
        Arrays.copyOf(kept, Math.min(keptLength, policy.maxDlqBytes())));
  }

  /**
   * A writer of the content of a JSON string (no quotes), escaped as Jackson's generator escapes
   * it, into this record: for a string too long to hand to the generator as one array.
   */
  Writer jsonStringContent() {
    return new Writer() {
      private final char[] chunk = new char[CHUNK_CHARS + 1];
      private int pending;

      @Override
      public void write(char[] chars, int offset, int count) {
        int at = offset;
        int end = offset + count;
        while (at < end) {
          int n = Math.min(CHUNK_CHARS - pending, end - at);
          System.arraycopy(chars, at, chunk, pending, n);
          pending += n;
          at += n;
          flushChunk(false);
        }
      }

      @Override
      public void write(String text, int offset, int count) {
        int at = offset;
        int end = offset + count;
        while (at < end) {
          int n = Math.min(CHUNK_CHARS - pending, end - at);
          text.getChars(at, at + n, chunk, pending);
          pending += n;
          at += n;
          flushChunk(false);
        }
      }

      @Override
      public void flush() {
        flushChunk(true);
      }

      @Override
      public void close() {
        flush();
      }

      /** Escapes what is pending, keeping back a high surrogate whose pair is still to come. */
      private void flushChunk(boolean last) {
        if (pending == 0 || (!last && pending < CHUNK_CHARS)) {
          return;
        }
        int n = pending;
        if (!last && Character.isHighSurrogate(chunk[n - 1])) {
          n--;
        }
        byte[] escaped = STRINGS.quoteAsUTF8(new String(chunk, 0, n));
        RecordBytes.this.write(escaped, 0, escaped.length);
        System.arraycopy(chunk, n, chunk, 0, pending - n);
        pending -= n;
      }
    };
  }

  private void ensureRoom(int more) {
    if (keptLength + more > kept.length) {
      long grown = Math.max(2L * kept.length, (long) keptLength + more);
      kept = Arrays.copyOf(kept, (int) Math.min(grown, keep));
    }
  }
}
