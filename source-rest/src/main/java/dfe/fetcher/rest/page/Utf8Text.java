package dfe.fetcher.rest.page;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes read as UTF-8 text, strictly: a malformed sequence is an error, never a replacement
 * character, which would land a value the body did not hold.
 */
public final class Utf8Text {

  private Utf8Text() {}

  /** A decoder that reports malformed input; one per thread of use, as decoders are stateful. */
  public static CharsetDecoder strictDecoder() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /**
   * The text of {@code bytes[from, from + length)}.
   *
   * @throws CharacterCodingException when they are not UTF-8
   */
  public static String decode(byte[] bytes, int from, int length) throws CharacterCodingException {
    return strictDecoder().decode(ByteBuffer.wrap(bytes, from, length)).toString();
  }
}
