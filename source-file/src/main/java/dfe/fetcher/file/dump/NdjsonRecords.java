package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.JsonValueScanner;
import java.io.IOException;
import java.io.InputStream;

/**
 * NDJSON: each non-blank line is exactly one JSON value, and the record is the line's own bytes
 * (whitespace around the value trimmed, nothing re-serialised), so what the provider wrote is what
 * lands. Lines are split on {@code \n}; a trailing {@code \r} is whitespace, and so is a UTF-8 byte
 * order mark at the start of any line (two files concatenated, one of them from a Windows tool): it
 * is not part of the record. Each line is checked to be one JSON value nesting at most {@link
 * FrameCodec#MAX_RECORD_DEPTH} deep by streaming over it (no tree is built).
 *
 * <p>A line whose value is longer than {@code max(max_record_bytes, max_dlq_bytes)} is not held:
 * its first bytes are kept and the rest is scanned to the newline, counting, so it comes out as a
 * {@link dfe.fetcher.core.row.Row.NotKept} whatever its length. Such a line is not checked to be
 * JSON: it is never landed, only its stub.
 */
final class NdjsonRecords implements RecordReader {

  private static final byte[] BYTE_ORDER_MARK = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

  private static final JsonFactory JSON = JsonValueScanner.RECORD_PARSER;

  private final JsonValueScanner scanner = new JsonValueScanner();
  private final InputStream in;
  private final RecordBytes record;
  private final byte[] buffer = new byte[FileContent.BUFFER_BYTES];
  private int position;
  private int limit;

  /** Lines consumed so far; the line being read is the next one. */
  private long lines;

  /** Bytes of the last line before its value (whitespace, byte order marks), for columns. */
  private long skippedBeforeValue;

  NdjsonRecords(InputStream in, RecordBytes record) {
    this.in = in;
    this.record = record;
  }

  @Override
  public DecodedRecord next() throws IOException {
    while (readLine()) {
      if (record.length() == 0) {
        continue;
      }
      if (record.isWhole()) {
        requireOneJsonValue(record.keptBytes(), record.keptLength());
      }
      return new DecodedRecord(record.content(), lines);
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

  /**
   * Reads the next line's value into {@code record}: leading whitespace and byte order marks
   * skipped, trailing whitespace dropped. False at the end of the file.
   */
  private boolean readLine() throws IOException {
    record.reset();
    skippedBeforeValue = 0;
    boolean beforeValue = true;
    int byteOrderMarkSeen = 0;
    long trailingWhitespace = 0;
    boolean consumedAny = false;
    while (true) {
      if (position == limit && !fill()) {
        if (!consumedAny) {
          return false;
        }
        // The last line has no newline after it.
        record.write(BYTE_ORDER_MARK, 0, byteOrderMarkSeen);
        lines++;
        record.dropLast(byteOrderMarkSeen > 0 ? 0 : trailingWhitespace);
        return true;
      }
      consumedAny = true;
      int newline = indexOfNewline(position, limit);
      int end = newline >= 0 ? newline : limit;
      while (beforeValue && position < end) {
        byte b = buffer[position];
        if (b == BYTE_ORDER_MARK[byteOrderMarkSeen]) {
          position++;
          if (++byteOrderMarkSeen == BYTE_ORDER_MARK.length) {
            byteOrderMarkSeen = 0;
            skippedBeforeValue += BYTE_ORDER_MARK.length;
          }
        } else if (byteOrderMarkSeen == 0 && isWhitespace(b)) {
          position++;
          skippedBeforeValue++;
        } else {
          // Part of a byte order mark followed by something else is content (and not JSON).
          record.write(BYTE_ORDER_MARK, 0, byteOrderMarkSeen);
          byteOrderMarkSeen = 0;
          beforeValue = false;
        }
      }
      if (position < end) {
        record.write(buffer, position, end - position);
        int last = end;
        while (last > position && isWhitespace(buffer[last - 1])) {
          last--;
        }
        trailingWhitespace = last == position ? trailingWhitespace + (end - position) : end - last;
      }
      position = end;
      if (newline >= 0) {
        position = newline + 1;
        record.write(BYTE_ORDER_MARK, 0, byteOrderMarkSeen);
        lines++;
        record.dropLast(byteOrderMarkSeen > 0 ? 0 : trailingWhitespace);
        return true;
      }
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

  private void requireOneJsonValue(byte[] bytes, int length) throws InvalidRecordException {
    // The fast path: a line the scanner accepts the parser accepts too; any other goes to the
    // parser, which accepts it or says what is wrong and where.
    if (scanner.isOneValue(bytes, length)) {
      return;
    }
    long secondValueColumn;
    JsonParser parser = null;
    try {
      parser = JSON.createParser(bytes, 0, length);
      parser.nextToken();
      parser.skipChildren();
      secondValueColumn =
          parser.nextToken() == null ? -1 : column(parser.currentTokenLocation().getColumnNr());
    } catch (StreamConstraintsException e) {
      // The constraint's exception carries no location; the parser stands just past the opening
      // that went one level too deep.
      String message = String.valueOf(e.getMessage());
      String limit =
          message.contains("nesting depth")
              ? "nests deeper than " + FrameCodec.MAX_RECORD_DEPTH + " levels"
              : message.contains("Number value length")
                  ? "holds a number longer than the parser takes"
                  : message.contains("Name length")
                      ? "holds a member name longer than the parser takes"
                      : "passes a limit of the parser";
      // Jackson's constraint messages name limits, never content.
      throw new InvalidRecordException(
          lines,
          column(parser == null ? 0 : parser.currentLocation().getColumnNr() - 1),
          "the record " + limit + ", so its frame could not be read",
          null);
    } catch (JsonProcessingException e) {
      // Not chained: Jackson's message quotes the record.
      throw new InvalidRecordException(
          lines,
          column(e.getLocation() == null ? 0 : e.getLocation().getColumnNr()),
          "not valid JSON: " + ParseProblem.describe(e),
          null);
    } catch (IOException e) {
      // A parser over a byte array does no I/O; anything else it throws is about the JSON.
      throw new InvalidRecordException(lines, 0, "not valid JSON", null);
    } finally {
      closeQuietly(parser);
    }
    if (secondValueColumn >= 0) {
      throw new InvalidRecordException(
          lines, secondValueColumn, "not one JSON value: a second value starts here", null);
    }
  }

  private static void closeQuietly(JsonParser parser) {
    if (parser != null) {
      try {
        parser.close();
      } catch (IOException ignored) {
        // A parser over a byte array holds nothing to release.
      }
    }
  }

  /** The line's column for a column of the value, which starts after what was skipped. */
  private long column(long valueColumn) {
    return valueColumn <= 0 ? 0 : skippedBeforeValue + valueColumn;
  }

  /** JSON's insignificant whitespace (RFC 8259): space, tab, line feed, carriage return. */
  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }
}
