package dfe.fetcher.core.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * A quick check that a line holds exactly one JSON value that the validating parser accepts, by a
 * single pass over its bytes without building tokens. It is the reader's fast path: a line it
 * accepts is known good; a line it refuses goes to the parser, which accepts it (this check is
 * stricter than the parser in a few corners: UTF-8 is checked strictly, long numbers and names are
 * left to the parser) or reports the problem and its column. It must therefore never accept what
 * the parser refuses: RFC 8259 syntax only, strings without raw control characters and with known
 * escapes, numbers without leading zeros, nesting at most {@link FrameCodec#MAX_RECORD_DEPTH}.
 *
 * <p>One refusal of the parser is not modelled: its symbol table's guard against names crafted to
 * collide in its hash, which depends on a seed and on the names of earlier lines; no real record
 * reaches it.
 *
 * <p>Reusable, not thread-safe: one per reader.
 */
public final class JsonValueScanner {

  /**
   * The validating parser the file readers stand this scanner in front of: Jackson with the
   * record's nesting limit and no limit on a string's length (a line's length is bounded by the
   * reader). {@code JsonValueScannerProperties} checks the scanner against it.
   */
  public static final JsonFactory RECORD_PARSER =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(FrameCodec.MAX_RECORD_DEPTH)
                  .maxStringLength(Integer.MAX_VALUE)
                  .build())
          .build();

  /** Longer numbers go to the parser, which limits their length (Jackson: 1,000 characters). */
  private static final int MAX_NUMBER_CHARS = 1000;

  /** Longer names go to the parser, which limits their length (Jackson: 50,000 characters). */
  private static final int MAX_NAME_BYTES = 50_000;

  private static final int MAX_DEPTH = FrameCodec.MAX_RECORD_DEPTH;

  /** The bytes a string holds as they are: printable ASCII but {@code "} and {@code \\}. */
  private static final boolean[] PLAIN = new boolean[256];

  static {
    for (int c = 0x20; c < 0x80; c++) {
      PLAIN[c] = c != '"' && c != '\\';
    }
  }

  private final boolean[] inObject = new boolean[MAX_DEPTH + 1];
  private byte[] bytes;
  private int end;
  private int position;
  private boolean escaped;
  private boolean topLevelNameMayCollide;
  private boolean object;

  /** Whether {@code bytes[0, length)} is one JSON value, with whitespace around it at most. */
  public boolean isOneValue(byte[] bytes, int length) {
    return isOneValue(bytes, 0, length);
  }

  /** Whether {@code bytes[from, to)} is one JSON value, with whitespace around it at most. */
  public boolean isOneValue(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.end = to;
    this.position = from;
    this.topLevelNameMayCollide = false;
    try {
      skipWhitespace();
      object = position < end && bytes[position] == '{';
      if (!value()) {
        return false;
      }
      skipWhitespace();
      return position == end;
    } finally {
      this.bytes = null;
    }
  }

  /**
   * After {@link #isOneValue} accepted an object: whether one of its top-level names begins with
   * {@code _} or is written with an escape, so that a field added at its top level under a name
   * beginning with {@code _} (a tailed line's {@code _file_path}, the enrichment's {@code
   * _source_*}) might collide with it. False when none can, and for a value that is no object: the
   * scan found it out on its way, so a caller need not look at the bytes again.
   */
  public boolean topLevelNameMayCollide() {
    return topLevelNameMayCollide;
  }

  /** After {@link #isOneValue} accepted a value: whether it is an object. */
  public boolean isObject() {
    return object;
  }

  /**
   * One value, containers included, iteratively (the depth is bounded by a table, not the stack).
   */
  private boolean value() {
    int depth = 0;
    while (true) {
      if (position >= end) {
        return false;
      }
      byte next = bytes[position];
      boolean complete = true;
      switch (next) {
        case '{', '[' -> {
          boolean object = next == '{';
          if (++depth > MAX_DEPTH) {
            return false;
          }
          inObject[depth] = object;
          position++;
          skipWhitespace();
          if (position < end && bytes[position] == (object ? (byte) '}' : (byte) ']')) {
            position++;
            depth--;
          } else if (!object || name(depth == 1)) {
            complete = false;
          } else {
            return false;
          }
        }
        case '"' -> {
          if (!string(Integer.MAX_VALUE, false)) {
            return false;
          }
        }
        case 't' -> {
          if (!literal("true")) {
            return false;
          }
        }
        case 'f' -> {
          if (!literal("false")) {
            return false;
          }
        }
        case 'n' -> {
          if (!literal("null")) {
            return false;
          }
        }
        default -> {
          if (!number()) {
            return false;
          }
        }
      }
      if (!complete) {
        continue;
      }
      // A value ended: close what it ends, or go on to the next member or element.
      while (true) {
        if (depth == 0) {
          return true;
        }
        skipWhitespace();
        if (position >= end) {
          return false;
        }
        byte after = bytes[position];
        if (after == ',') {
          position++;
          skipWhitespace();
          if (inObject[depth] && !name(depth == 1)) {
            return false;
          }
          break;
        }
        if (after == (inObject[depth] ? (byte) '}' : (byte) ']')) {
          position++;
          depth--;
          continue;
        }
        return false;
      }
    }
  }

  /**
   * A member's name and its colon, leaving the position at the member's value; a name of the
   * top-level object that begins with {@code _} or holds an escape is noted.
   */
  private boolean name(boolean topLevel) {
    int first = position + 1;
    escaped = false;
    if (position >= end || bytes[position] != '"' || !string(MAX_NAME_BYTES, true)) {
      return false;
    }
    if (topLevel && (escaped || bytes[first] == '_')) {
      topLevelNameMayCollide = true;
    }
    skipWhitespace();
    if (position >= end || bytes[position] != ':') {
      return false;
    }
    position++;
    skipWhitespace();
    return true;
  }

  /**
   * A string from its opening quote; its content at most {@code maxBytes} bytes. A name's escapes
   * are decoded by the parser, which refuses a surrogate that is not one of a pair: the scanner
   * leaves every escaped surrogate in a name to it.
   */
  private boolean string(int maxBytes, boolean name) {
    int start = ++position;
    while (position < end) {
      // The common bytes first, in a loop of their own: printable ASCII but the quote and the
      // backslash.
      while (position < end && PLAIN[bytes[position] & 0xff]) {
        position++;
      }
      if (position >= end) {
        return false;
      }
      int c = bytes[position] & 0xff;
      if (c == '"') {
        position++;
        return position - start - 1 <= maxBytes;
      }
      if (c == '\\') {
        if (!escape(name)) {
          return false;
        }
      } else if (c < 0x20) {
        return false;
      } else if (c < 0x80) {
        position++;
      } else if (!utf8(c)) {
        return false;
      }
    }
    return false;
  }

  private boolean escape(boolean name) {
    escaped = true;
    if (position + 1 >= end) {
      return false;
    }
    switch (bytes[position + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        position += 2;
        return true;
      }
      case 'u' -> {
        if (position + 5 >= end) {
          return false;
        }
        for (int i = position + 2; i < position + 6; i++) {
          if (!isHexDigit(bytes[i])) {
            return false;
          }
        }
        if (name
            && (bytes[position + 2] | 0x20) == 'd'
            && isSurrogateSecondDigit(bytes[position + 3])) {
          return false;
        }
        position += 6;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** One well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates). */
  private boolean utf8(int lead) {
    int count;
    int low = 0x80;
    int high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      count = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      count = 2;
      if (lead == 0xe0) {
        low = 0xa0;
      } else if (lead == 0xed) {
        high = 0x9f;
      }
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      count = 3;
      if (lead == 0xf0) {
        low = 0x90;
      } else if (lead == 0xf4) {
        high = 0x8f;
      }
    } else {
      return false;
    }
    if (position + count >= end) {
      return false;
    }
    int second = bytes[position + 1] & 0xff;
    if (second < low || second > high) {
      return false;
    }
    for (int i = position + 2; i <= position + count; i++) {
      int continuation = bytes[i] & 0xff;
      if (continuation < 0x80 || continuation > 0xbf) {
        return false;
      }
    }
    position += count + 1;
    return true;
  }

  private boolean literal(String word) {
    if (position + word.length() > end) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (bytes[position + i] != word.charAt(i)) {
        return false;
      }
    }
    position += word.length();
    // What follows must end the literal: checked by the caller, which takes only whitespace, a
    // separator, a closing bracket or the end.
    return true;
  }

  /** RFC 8259's number: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. */
  private boolean number() {
    int start = position;
    if (bytes[position] == '-') {
      position++;
    }
    if (position >= end) {
      return false;
    }
    if (bytes[position] == '0') {
      position++;
    } else if (isDigit(bytes[position])) {
      skipDigits();
    } else {
      return false;
    }
    if (position < end && bytes[position] == '.') {
      position++;
      if (!skipDigits()) {
        return false;
      }
    }
    if (position < end && (bytes[position] == 'e' || bytes[position] == 'E')) {
      position++;
      if (position < end && (bytes[position] == '+' || bytes[position] == '-')) {
        position++;
      }
      if (!skipDigits()) {
        return false;
      }
    }
    return position - start <= MAX_NUMBER_CHARS;
  }

  /** Skips digits; false when there was none. */
  private boolean skipDigits() {
    int start = position;
    while (position < end && isDigit(bytes[position])) {
      position++;
    }
    return position > start;
  }

  private void skipWhitespace() {
    while (position < end) {
      byte b = bytes[position];
      if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
        position++;
      } else {
        return;
      }
    }
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  /** {@code 8}-{@code b} (either case) after a {@code d}: {@code \\uD800}-{@code \\uDFFF}. */
  private static boolean isSurrogateSecondDigit(byte b) {
    return (b >= '8' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }

  private static boolean isHexDigit(byte b) {
    return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }
}
