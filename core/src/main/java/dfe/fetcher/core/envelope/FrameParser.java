package dfe.fetcher.core.envelope;

/**
 * Parses frames one line after another, as {@link FrameCodec#parse} does, reusing what it can
 * between lines (the previous frame's head strings, its working state). Not thread-safe: one parser
 * per reader.
 */
public final class FrameParser {

  private final FrameCodec.FrameFields fields = new FrameCodec.FrameFields();

  public Frame parse(byte[] json) throws InvalidFrameException {
    return parse(json, 0, json.length);
  }

  /** Parses one frame from {@code length} bytes of {@code buffer} starting at {@code offset}. */
  public Frame parse(byte[] buffer, int offset, int length) throws InvalidFrameException {
    return FrameCodec.parse(fields, buffer, offset, length);
  }
}
