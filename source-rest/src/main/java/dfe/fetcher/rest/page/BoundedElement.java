package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Copies the JSON value at a parser's current token to a generator token by token, and stops as
 * soon as the input it took passes a bound: a streamed array element is never held whole before it
 * is known to fit. A single string longer than the bound is stopped by the parser's own constraint
 * ({@link PageDecoding} sets {@code maxStringLength} to the same bound), since the parser holds a
 * string whole before handing it on.
 */
final class BoundedElement {

  /** The value took more than the bound of the input. */
  static final class TooLong extends Exception {
    private static final long serialVersionUID = 1L;

    TooLong() {
      super(null, null, false, false);
    }
  }

  private BoundedElement() {}

  /**
   * Copies the value starting at {@code parser}'s current token, leaving the parser on its last
   * token.
   *
   * @throws TooLong when the value spans more than {@code maxBytes} of the input
   */
  static void copy(JsonParser parser, JsonGenerator generator, long maxBytes)
      throws IOException, TooLong {
    long start = offset(parser.currentTokenLocation());
    int depth = 0;
    while (true) {
      JsonToken token = parser.currentToken();
      generator.copyCurrentEventExact(parser);
      if (offset(parser.currentLocation()) - start > maxBytes) {
        throw new TooLong();
      }
      if (token.isStructStart()) {
        depth++;
      } else if (token.isStructEnd()) {
        depth--;
      }
      if (depth == 0) {
        return;
      }
      if (parser.nextToken() == null) {
        throw new IOException("the body ends inside an array element");
      }
    }
  }

  /** Bytes for a parser over bytes, characters for one over text. */
  private static long offset(JsonLocation location) {
    return location.getByteOffset() >= 0 ? location.getByteOffset() : location.getCharOffset();
  }
}
