package dfe.fetcher.file.tail;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a file's content into lines on {@code \n}, from an offset up to a limit (the size the file
 * had when the read began, so a busy file cannot hold a read forever), keeping at most {@code
 * keepBytes} of each line and counting the rest. A line without its newline yet is not a line: it
 * is held (its bytes are read again next time) until the newline is written, or handed out by
 * {@link #rest} when the file is known to be complete. Not thread-safe.
 */
final class LineReader {

  private static final int BUFFER_BYTES = 64 * 1024;

  /**
   * One line.
   *
   * @param start the offset of its first byte
   * @param end the offset just past its newline (or its last byte, for the rest of a complete file)
   * @param bytes its first {@code kept} bytes, without the newline (a {@code \r} before it stays)
   * @param kept how many bytes of {@code bytes} are the line's
   * @param length the line's whole length without the newline
   */
  record Line(long start, long end, byte[] bytes, int kept, long length) {

    /** Whether the whole line was kept. */
    boolean whole() {
      return kept == length;
    }
  }

  private final InputStream in;
  private final long limit;
  private final int keepBytes;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int position;
  private int filled;
  private long offset;
  private boolean exhausted;

  private byte[] line = new byte[256];
  private int kept;
  private long length;
  private long lineStart;

  /**
   * @param in the content from {@code offset} on
   * @param limit no byte at or past this offset is read
   */
  LineReader(InputStream in, long offset, long limit, int keepBytes) {
    this.in = in;
    this.offset = offset;
    this.lineStart = offset;
    this.limit = limit;
    this.keepBytes = keepBytes;
  }

  /** The next whole line; null when none ends before the limit or the end of the content. */
  Line next() throws IOException {
    while (true) {
      if (position == filled && !fill()) {
        return null;
      }
      int newline = -1;
      for (int i = position; i < filled; i++) {
        if (buffer[i] == '\n') {
          newline = i;
          break;
        }
      }
      int to = newline < 0 ? filled : newline;
      keep(position, to);
      offset += to - position + (newline < 0 ? 0 : 1);
      position = newline < 0 ? filled : newline + 1;
      if (newline >= 0) {
        return take(offset);
      }
    }
  }

  /**
   * What stands after the last whole line, once the content is known to be complete (a gzip file, a
   * rotated file no longer written to); null when nothing does. Call after {@link #next} returned
   * null.
   */
  Line rest() {
    if (length == 0) {
      return null;
    }
    return take(offset);
  }

  /** The offset after the last line handed out: where the next read starts. */
  long lineStart() {
    return lineStart;
  }

  private Line take(long end) {
    Line taken = new Line(lineStart, end, Arrays.copyOf(line, kept), kept, length);
    lineStart = end;
    kept = 0;
    length = 0;
    return taken;
  }

  private void keep(int from, int to) {
    int count = to - from;
    length += count;
    int room = (int) Math.min(count, Math.max(0, keepBytes - kept));
    if (room > 0) {
      if (kept + room > line.length) {
        line = Arrays.copyOf(line, Math.max(kept + room, Math.min(keepBytes, line.length * 2)));
      }
      System.arraycopy(buffer, from, line, kept, room);
      kept += room;
    }
  }

  private boolean fill() throws IOException {
    if (exhausted || offset >= limit) {
      return false;
    }
    int want = (int) Math.min(buffer.length, limit - offset);
    int read = in.readNBytes(buffer, 0, want);
    if (read <= 0) {
      exhausted = true;
      return false;
    }
    position = 0;
    filled = read;
    return true;
  }
}
