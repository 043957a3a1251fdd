package dfe.fetcher.core.envelope;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
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
