package dfe.fetcher.core.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Parses frames one line after another, as {@link FrameCodec#parse} does, reusing what it can
 * between lines (the previous frame's head strings, its working state). Not thread-safe: one parser
 * per reader.
 *
 * <p>A line's fields are read first, then checked against its kind: a field that is not the kind's
 * own is ignored whatever its type. They are read by {@link FrameScanner} from the bytes when it is
 * certain of the line, else by Jackson's tokens; both give the same frame, or the same error.
 */
public final class FrameParser {

  private static final JsonFactory JSON = new JsonFactory();

  private final FrameFields fields = new FrameFields();
  private final FrameScanner scanner = new FrameScanner(fields);

  public Frame parse(byte[] json) throws InvalidFrameException {
    return parse(json, 0, json.length);
  }

  /**
   * Parses one frame from {@code length} bytes of {@code buffer} starting at {@code offset}: by the
   * {@link FrameScanner} in one pass over the bytes, or, for a line it is not certain of (an
   * invalid one among them), by Jackson's tokens, whose errors are then the ones reported.
   */
  public Frame parse(byte[] buffer, int offset, int length) throws InvalidFrameException {
    if (!scanner.scan(buffer, offset, length)) {
      readTokens(buffer, offset, length);
    }
    return toFrame();
  }

  /** Parses by Jackson's tokens alone, the scanner's fallback: tests compare the two paths. */
  Frame parseTokens(byte[] buffer, int offset, int length) throws InvalidFrameException {
    readTokens(buffer, offset, length);
    return toFrame();
  }

  private void readTokens(byte[] buffer, int offset, int length) throws InvalidFrameException {
    try (JsonParser parser = JSON.createParser(buffer, offset, length)) {
      read(parser, buffer, offset);
    } catch (JsonProcessingException e) {
      throw new InvalidFrameException("not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("reading from a byte array failed", e);
    }
  }

  private void read(JsonParser parser, byte[] buffer, int offset)
      throws IOException, InvalidFrameException {
    fields.clear();
    FrameFields f = fields;
    JsonToken first = parser.nextToken();
    if (first != JsonToken.START_OBJECT) {
      throw new InvalidFrameException(
          first == null ? "empty, not a frame" : "not a JSON object but " + describe(first));
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "kind" -> f.kind = headScalar(FrameFields.KIND, parser, value);
        case "snapshot_id" -> f.snapshotId = headScalar(FrameFields.SNAPSHOT_ID, parser, value);
        case "snapshot_at" -> f.snapshotAt = headScalar(FrameFields.SNAPSHOT_AT, parser, value);
        case "timestamp" -> f.timestamp = headScalar(FrameFields.TIMESTAMP, parser, value);
        case "store" -> f.store = headScalar(FrameFields.STORE, parser, value);
        case "seq" -> f.seq = scalar(parser, value);
        case "total" -> f.total = scalar(parser, value);
        case "bytes" -> f.bytes = scalar(parser, value);
        case "row_key" -> f.rowKey = scalar(parser, value);
        case "row_count" -> f.rowCount = scalar(parser, value);
        case "completed_at" -> f.completedAt = scalar(parser, value);
        case "record" -> f.record = record(parser, buffer, offset);
        default -> parser.skipChildren();
      }
    }
    if (parser.nextToken() != null) {
      throw new InvalidFrameException("more than one JSON value on the line");
    }
  }

  private Frame toFrame() throws InvalidFrameException {
    FrameFields f = fields;
    String kindName = string("kind", f.kind);
    FrameKind frameKind =
        FrameKind.fromWireName(kindName)
            .orElseThrow(
                () ->
                    new InvalidFrameException(
                        "kind \"" + kindName + "\" is not one of begin, row, oversize, end"));
    FrameHead head =
        new FrameHead(
            string("snapshot_id", f.snapshotId),
            string("snapshot_at", f.snapshotAt),
            string("timestamp", f.timestamp),
            string("store", f.store),
            count("seq", f.seq));
    return switch (frameKind) {
      case BEGIN ->
          new Frame.Begin(
              head,
              f.total == null
                  ? OptionalLong.empty()
                  : OptionalLong.of(count("total", f.total, Long.MAX_VALUE)));
      case ROW -> {
        if (f.record == null) {
          throw new InvalidFrameException("a row frame has no record");
        }
        yield new Frame.Row(head, f.record);
      }
      case OVERSIZE -> {
        long size = count("bytes", f.bytes, Long.MAX_VALUE);
        if (f.rowKey != null && !(f.rowKey instanceof String)) {
          throw new InvalidFrameException("row_key is " + describe(f.rowKey) + ", not a string");
        }
        yield new Frame.Oversize(head, size, Optional.ofNullable((String) f.rowKey));
      }
      case END ->
          new Frame.End(
              head, count("row_count", f.rowCount), string("completed_at", f.completedAt, true));
    };
  }

  /** As {@link #scalar}, reusing the previous frame's string when the text is the same. */
  private Object headScalar(int slot, JsonParser parser, JsonToken token) throws IOException {
    if (token != JsonToken.VALUE_STRING) {
      return scalar(parser, token);
    }
    char[] chars = parser.getTextCharacters();
    int from = parser.getTextOffset();
    int length = parser.getTextLength();
    String previous = fields.recent[slot];
    if (previous != null && previous.length() == length) {
      boolean same = true;
      for (int i = 0; i < length && same; i++) {
        same = previous.charAt(i) == chars[from + i];
      }
      if (same) {
        return previous;
      }
    }
    String text = new String(chars, from, length);
    fields.recent[slot] = text;
    return text;
  }

  /** A scalar's value (String, Long, BigInteger), or its token when it is of another type. */
  private static Object scalar(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case VALUE_STRING:
        return parser.getText();
      case VALUE_NUMBER_INT:
        return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? parser.getBigIntegerValue()
            : parser.getLongValue();
      case START_OBJECT:
      case START_ARRAY:
        parser.skipChildren();
        return token;
      default:
        return token;
    }
  }

  /** The record's bytes exactly as they stand in the buffer, and their digest, in one pass. */
  private static RawRecord record(JsonParser parser, byte[] buffer, int offset) throws IOException {
    int start = offset + (int) parser.currentTokenLocation().getByteOffset();
    long digest = CanonicalDigest.ofCurrentValue(parser);
    int end = offset + (int) parser.currentLocation().getByteOffset();
    while (end > start && isJsonWhitespace(buffer[end - 1])) {
      end--;
    }
    return RawRecord.withDigest(Arrays.copyOfRange(buffer, start, end), digest);
  }

  private static boolean isJsonWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private static String string(String field, Object value) throws InvalidFrameException {
    return string(field, value, false);
  }

  private static String string(String field, Object value, boolean mayBeEmpty)
      throws InvalidFrameException {
    if (value == null) {
      throw new InvalidFrameException("missing " + field);
    }
    if (!(value instanceof String text)) {
      throw new InvalidFrameException(field + " is " + describe(value) + ", not a string");
    }
    if (text.isEmpty() && !mayBeEmpty) {
      throw new InvalidFrameException(field + " is an empty string");
    }
    return text;
  }

  /** A seq-like count: a non-negative integer the Reassembler's 32-bit bitmaps can hold. */
  private static long count(String field, Object value) throws InvalidFrameException {
    return count(field, value, FrameCodec.MAX_SEQ);
  }

  private static long count(String field, Object value, long max) throws InvalidFrameException {
    if (value == null) {
      throw new InvalidFrameException("missing " + field);
    }
    if (value instanceof BigInteger big) {
      if (big.signum() < 0) {
        throw new InvalidFrameException(field + " is negative (" + big + ")");
      }
      throw new InvalidFrameException(field + " " + big + " is beyond " + max);
    }
    if (!(value instanceof Long number)) {
      throw new InvalidFrameException(
          field + " is " + describe(value) + ", not a non-negative integer");
    }
    if (number < 0) {
      throw new InvalidFrameException(field + " is negative (" + number + ")");
    }
    if (number > max) {
      throw new InvalidFrameException(field + " " + number + " is beyond " + max);
    }
    return number;
  }

  private static String describe(Object value) {
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Long || value instanceof BigInteger) {
      return "the number " + value;
    }
    return describe((JsonToken) value);
  }

  private static String describe(JsonToken token) {
    return switch (token) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT -> "an integer";
      case VALUE_NUMBER_FLOAT -> "a fractional number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }
}
