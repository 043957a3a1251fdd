package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import dfe.fetcher.envelope.RawRecord;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * NDJSON: each non-blank line is exactly one JSON value, and the record is the line's own bytes
 * (whitespace around the value trimmed, nothing re-serialised), so what the provider wrote is what
 * lands. Lines are split on {@code \n}; a trailing {@code \r} is whitespace. Each line is checked
 * to be one JSON value by streaming over it (no tree is built).
 */
final class NdjsonRecords implements RecordReader {

  private static final JsonFactory JSON = new JsonFactory();

  private final InputStream in;
  private final int maxRecordBytes;
  private final byte[] buffer = new byte[FileContent.BUFFER_BYTES];
  private int position;
  private int limit;

  /** Holds a line that spans buffer refills; grows up to the record limit, never beyond. */
  private byte[] spill = new byte[0];

  private int spillLength;

  /** Lines consumed so far; the line being read is the next one. */
  private long lines;

  // The line last read: [lineStart, lineEnd) of lineBytes, which is either buffer or spill.
  private byte[] lineBytes;
  private int lineStart;
  private int lineEnd;

  NdjsonRecords(InputStream in, int maxRecordBytes) {
    this.in = in;
    this.maxRecordBytes = maxRecordBytes;
  }

  @Override
  public DecodedRecord next() throws IOException {
    while (readLine()) {
      int start = lineStart;
      int end = lineEnd;
      while (start < end && isWhitespace(lineBytes[start])) {
        start++;
      }
      while (end > start && isWhitespace(lineBytes[end - 1])) {
        end--;
      }
      if (start == end) {
        continue;
      }
      requireOneJsonValue(lineBytes, start, end - start);
      return new DecodedRecord(RawRecord.of(Arrays.copyOfRange(lineBytes, start, end)), lines);
    }
    return null;
  }

  @Override
  public long line() {
    return lines + 1;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException ignored) {
      // See RecordReader.close: nothing read is lost by a failed close.
    }
  }

  /** Reads the next line into lineBytes; false at the end of the file. */
  private boolean readLine() throws IOException {
    spillLength = 0;
    boolean consumedAny = false;
    while (true) {
      if (position == limit && !fill()) {
        if (!consumedAny) {
          return false;
        }
        // The last line has no newline after it.
        lines++;
        lineBytes = spill;
        lineStart = 0;
        lineEnd = spillLength;
        return true;
      }
      consumedAny = true;
      int newline = indexOfNewline(position, limit);
      if (newline >= 0) {
        if (spillLength == 0) {
          requireWithinLimit(newline - position);
          lines++;
          lineBytes = buffer;
          lineStart = position;
          lineEnd = newline;
        } else {
          appendToSpill(position, newline);
          lines++;
          lineBytes = spill;
          lineStart = 0;
          lineEnd = spillLength;
        }
        position = newline + 1;
        return true;
      }
      appendToSpill(position, limit);
      position = limit;
    }
  }

  private boolean fill() throws IOException {
    int read;
    do {
      read = in.read(buffer, 0, buffer.length);
    } while (read == 0);
    if (read < 0) {
      return false;
    }
    position = 0;
    limit = read;
    return true;
  }

  private int indexOfNewline(int from, int to) {
    for (int i = from; i < to; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void appendToSpill(int from, int to) throws InvalidRecordException {
    int length = to - from;
    requireWithinLimit(spillLength + (long) length);
    if (spillLength + length > spill.length) {
      long doubled = Math.max(2L * spill.length, spillLength + (long) length);
      spill = Arrays.copyOf(spill, (int) Math.min(doubled, maxRecordBytes));
    }
    System.arraycopy(buffer, from, spill, spillLength, length);
    spillLength += length;
  }

  /** Stops reading a line that no record may be as long as, before it is held in memory. */
  private void requireWithinLimit(long lineLength) throws InvalidRecordException {
    if (lineLength > maxRecordBytes) {
      throw new InvalidRecordException(
          lines + 1, "the line is longer than the largest record (" + maxRecordBytes + " bytes)");
    }
  }

  private void requireOneJsonValue(byte[] bytes, int offset, int length)
      throws InvalidRecordException {
    long secondValueColumn;
    try (JsonParser parser = JSON.createParser(bytes, offset, length)) {
      parser.nextToken();
      parser.skipChildren();
      secondValueColumn =
          parser.nextToken() == null ? -1 : parser.currentTokenLocation().getColumnNr();
    } catch (JsonProcessingException e) {
      throw new InvalidRecordException(
          lines,
          "not valid JSON: "
              + e.getOriginalMessage()
              + (e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")"),
          e);
    } catch (IOException e) {
      // A parser over a byte array does no I/O; anything else it throws is about the JSON.
      throw new InvalidRecordException(lines, "not valid JSON: " + e.getMessage(), e);
    }
    if (secondValueColumn >= 0) {
      throw new InvalidRecordException(
          lines, "not one JSON value: a second value starts at column " + secondValueColumn);
    }
  }

  /** JSON's insignificant whitespace (RFC 8259): space, tab, line feed, carriage return. */
  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }
}
