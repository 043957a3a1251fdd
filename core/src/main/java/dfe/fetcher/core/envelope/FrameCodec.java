package dfe.fetcher.core.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The JSON form of frames.
 *
 * <p>{@link #encode} writes the keys in one fixed order ({@code kind, snapshot_id, snapshot_at,
 * timestamp, store, seq}, then the kind's fields) and embeds a row's record bytes as they are.
 * {@link #parse} accepts a frame when it is a JSON object with a known {@code kind}, non-empty
 * string {@code snapshot_id}, {@code snapshot_at}, {@code timestamp} and {@code store}, a
 * non-negative integer {@code seq}, and the fields its kind requires; other fields are ignored.
 * Both are thread-safe.
 */
public final class FrameCodec {

  /**
   * The largest seq, row count, byte count or total this project tracks: the Reassembler keeps
   * presence in 32-bit unsigned bitmaps, so a dump holds at most this many rows plus one.
   */
  public static final long MAX_SEQ = 0xFFFF_FFFFL;

  /**
   * The deepest a record may nest (an array or object counts one level): its row frame is one level
   * deeper, and must still read with Jackson's default limit ({@link
   * StreamReadConstraints#DEFAULT_MAX_DEPTH}, 1000), which is this codec's own, that of {@code
   * snapshots verify}, and that of a consumer on common parser defaults.
   */
  public static final int MAX_RECORD_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH - 1;

  private static final JsonFactory JSON = new JsonFactory();
  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();
  private static final byte[] KIND = ascii("{\"kind\":\"");
  private static final byte[] SNAPSHOT_ID = ascii("\",\"snapshot_id\":");
  private static final byte[] SNAPSHOT_AT = ascii(",\"snapshot_at\":");
  private static final byte[] TIMESTAMP = ascii(",\"timestamp\":");
  private static final byte[] STORE = ascii(",\"store\":");
  private static final byte[] SEQ = ascii(",\"seq\":");
  private static final byte[] TOTAL = ascii(",\"total\":");
  private static final byte[] RECORD = ascii(",\"record\":");
  private static final byte[] BYTES = ascii(",\"bytes\":");
  private static final byte[] ROW_KEY = ascii(",\"row_key\":");
  private static final byte[] ROW_COUNT = ascii(",\"row_count\":");
  private static final byte[] COMPLETED_AT = ascii(",\"completed_at\":");

  private FrameCodec() {}

  /** The frame as one UTF-8 JSON object, without a trailing newline. */
  public static byte[] encode(Frame frame) {
    FrameHead head = frame.head();
    int recordLength = frame instanceof Frame.Row row ? row.record().length() : 0;
    Buffer out = new Buffer(160 + head.store().length() * 2 + recordLength);
    out.write(KIND);
    out.write(ascii(frame.kind().wireName()));
    out.write(SNAPSHOT_ID);
    out.writeString(head.snapshotId());
    out.write(SNAPSHOT_AT);
    out.writeString(head.snapshotAt());
    out.write(TIMESTAMP);
    out.writeString(head.timestamp());
    out.write(STORE);
    out.writeString(head.store());
    out.write(SEQ);
    out.writeLong(head.seq());
    switch (frame.kind()) {
      case BEGIN -> {
        OptionalLong total = ((Frame.Begin) frame).total();
        if (total.isPresent()) {
          out.write(TOTAL);
          out.writeLong(total.getAsLong());
        }
      }
      case ROW -> {
        out.write(RECORD);
        out.write(((Frame.Row) frame).record().bytes());
      }
      case OVERSIZE -> {
        Frame.Oversize stub = (Frame.Oversize) frame;
        out.write(BYTES);
        out.writeLong(stub.bytes());
        if (stub.rowKey().isPresent()) {
          out.write(ROW_KEY);
          out.writeString(stub.rowKey().get());
        }
      }
      case END -> {
        Frame.End end = (Frame.End) frame;
        out.write(ROW_COUNT);
        out.writeLong(end.rowCount());
        out.write(COMPLETED_AT);
        out.writeString(end.completedAt());
      }
    }
    out.write('}');
    return out.toByteArray();
  }

  /** Parses one frame from the whole of {@code json}. */
  public static Frame parse(byte[] json) throws InvalidFrameException {
    return parse(json, 0, json.length);
  }

  /**
   * Parses one frame from {@code length} bytes of {@code buffer} starting at {@code offset}. A
   * row's record is copied out of the buffer, so the caller may reuse it.
   */
  public static Frame parse(byte[] buffer, int offset, int length) throws InvalidFrameException {
    return new FrameParser().parse(buffer, offset, length);
  }

  /** Parses with {@code fields}, which the caller may reuse for the next line. */
  static Frame parse(FrameFields fields, byte[] buffer, int offset, int length)
      throws InvalidFrameException {
    try (JsonParser parser = JSON.createParser(buffer, offset, length)) {
      return fields.read(parser, buffer, offset).toFrame();
    } catch (JsonProcessingException e) {
      throw new InvalidFrameException("not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("reading from a byte array failed", e);
    }
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The fields of one frame object as read, before they are checked against its kind: a field that
   * is not the kind's own is ignored whatever its type.
   */
  static final class FrameFields {
    private static final int KIND = 0;
    private static final int SNAPSHOT_ID = 1;
    private static final int SNAPSHOT_AT = 2;
    private static final int TIMESTAMP = 3;
    private static final int STORE = 4;

    /**
     * The head strings of the previous frame: consecutive frames mostly share them, so a value
     * equal to the last one is reused instead of allocated again.
     */
    private final String[] recent = new String[5];

    private Object kind;
    private Object snapshotId;
    private Object snapshotAt;
    private Object timestamp;
    private Object store;
    private Object seq;
    private Object total;
    private Object bytes;
    private Object rowKey;
    private Object rowCount;
    private Object completedAt;
    private RawRecord record;

    FrameFields read(JsonParser parser, byte[] buffer, int offset)
        throws IOException, InvalidFrameException {
      kind = snapshotId = snapshotAt = timestamp = store = null;
      seq = total = bytes = rowKey = rowCount = completedAt = null;
      record = null;
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new InvalidFrameException(
            first == null ? "empty, not a frame" : "not a JSON object but " + describe(first));
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (name) {
          case "kind" -> kind = headScalar(KIND, parser, value);
          case "snapshot_id" -> snapshotId = headScalar(SNAPSHOT_ID, parser, value);
          case "snapshot_at" -> snapshotAt = headScalar(SNAPSHOT_AT, parser, value);
          case "timestamp" -> timestamp = headScalar(TIMESTAMP, parser, value);
          case "store" -> store = headScalar(STORE, parser, value);
          case "seq" -> seq = scalar(parser, value);
          case "total" -> total = scalar(parser, value);
          case "bytes" -> bytes = scalar(parser, value);
          case "row_key" -> rowKey = scalar(parser, value);
          case "row_count" -> rowCount = scalar(parser, value);
          case "completed_at" -> completedAt = scalar(parser, value);
          case "record" -> record = record(parser, buffer, offset);
          default -> parser.skipChildren();
        }
      }
      if (parser.nextToken() != null) {
        throw new InvalidFrameException("more than one JSON value on the line");
      }
      return this;
    }

    Frame toFrame() throws InvalidFrameException {
      String kindName = string("kind", kind);
      FrameKind frameKind =
          FrameKind.fromWireName(kindName)
              .orElseThrow(
                  () ->
                      new InvalidFrameException(
                          "kind \"" + kindName + "\" is not one of begin, row, oversize, end"));
      FrameHead head =
          new FrameHead(
              string("snapshot_id", snapshotId),
              string("snapshot_at", snapshotAt),
              string("timestamp", timestamp),
              string("store", store),
              count("seq", seq));
      return switch (frameKind) {
        case BEGIN ->
            new Frame.Begin(
                head,
                total == null
                    ? OptionalLong.empty()
                    : OptionalLong.of(count("total", total, Long.MAX_VALUE)));
        case ROW -> {
          if (record == null) {
            throw new InvalidFrameException("a row frame has no record");
          }
          yield new Frame.Row(head, record);
        }
        case OVERSIZE -> {
          long size = count("bytes", bytes, Long.MAX_VALUE);
          if (rowKey != null && !(rowKey instanceof String)) {
            throw new InvalidFrameException("row_key is " + describe(rowKey) + ", not a string");
          }
          yield new Frame.Oversize(head, size, Optional.ofNullable((String) rowKey));
        }
        case END ->
            new Frame.End(
                head, count("row_count", rowCount), string("completed_at", completedAt, true));
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
      String previous = recent[slot];
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
      recent[slot] = text;
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
    private static RawRecord record(JsonParser parser, byte[] buffer, int offset)
        throws IOException {
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
      return count(field, value, MAX_SEQ);
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

  /** A growable byte buffer that writes JSON strings and numbers without a generator. */
  private static final class Buffer {
    private byte[] bytes;
    private int size;

    Buffer(int capacity) {
      bytes = new byte[capacity];
    }

    void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    void write(byte[] chunk) {
      ensure(chunk.length);
      System.arraycopy(chunk, 0, bytes, size, chunk.length);
      size += chunk.length;
    }

    void writeString(String text) {
      write('"');
      write(STRINGS.quoteAsUTF8(text));
      write('"');
    }

    void writeLong(long value) {
      write(ascii(Long.toString(value)));
    }

    byte[] toByteArray() {
      return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }

    private void ensure(int extra) {
      if (size + extra > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
      }
    }
  }
}
