package dfe.fetcher.core.envelope;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a frame line in one pass over its bytes, and digests its record on the way, without a token
 * stream or a string per value. {@link #scan} either fills the {@link FrameFields} exactly as
 * {@link FrameParser}'s Jackson token path would from the same bytes, or says it is unsure and
 * leaves the line to that path.
 *
 * <p>It reads only what it can read with certainty: strict JSON (RFC 8259) in well-formed UTF-8,
 * well inside Jackson's default limits. Anything else makes it unsure, whether the line is invalid
 * or merely unusual: an escape, a non-ASCII byte or a control character in a field name or in a
 * head string, a head number that is not an integer of at most 18 digits, a head value of another
 * type, malformed or overlong UTF-8, a surrogate escape in a member name, a number longer than
 * {@value #MAX_NUMBER_LENGTH} characters or with an exponent of more than {@value
 * #MAX_EXPONENT_DIGITS} digits, nesting deeper than {@value #MAX_DEPTH}, a byte order mark. So
 * every error message, and every value it does not handle, stays Jackson's.
 *
 * <p>The record's digest is {@link CanonicalDigest}'s, built from the same blocks: strings by their
 * UTF-16 code units after unescaping (a four-byte UTF-8 sequence is its surrogate pair, a {@code
 * \\u} escape one unit, paired or not), numbers by their exact decimal value. Not thread-safe: one
 * scanner per parser.
 */
final class FrameScanner {

  /** What a step returns instead of a position when it is not certain of the line. */
  private static final int UNSURE = -1;

  private static final int MAX_DEPTH = 200;
  private static final int MAX_NUMBER_LENGTH = 200;
  private static final int MAX_EXPONENT_DIGITS = 4;

  /** Bytes, so UTF-16 units, well under Jackson's defaults of 50,000 and 20,000,000. */
  private static final int MAX_NAME_BYTES = 40_000;

  private static final int MAX_STRING_BYTES = 10_000_000;

  /** Mantissa digits that always fit a long, so need no BigDecimal. */
  private static final int LONG_DIGITS = 18;

  private static final byte[] KIND = ascii("kind");
  private static final byte[] SNAPSHOT_ID = ascii("snapshot_id");
  private static final byte[] SNAPSHOT_AT = ascii("snapshot_at");
  private static final byte[] TIMESTAMP = ascii("timestamp");
  private static final byte[] STORE = ascii("store");
  private static final byte[] SEQ = ascii("seq");
  private static final byte[] TOTAL = ascii("total");
  private static final byte[] BYTES = ascii("bytes");
  private static final byte[] ROW_KEY = ascii("row_key");
  private static final byte[] ROW_COUNT = ascii("row_count");
  private static final byte[] COMPLETED_AT = ascii("completed_at");
  private static final byte[] RECORD = ascii("record");
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");
  private static final byte[] NULL = ascii("null");

  private final FrameFields fields;

  private byte[] buffer;
  private int end;

  /** The digest of the JSON value the last step read. */
  private long digest;

  /** The value of the head scalar the last step read. */
  private Object scalar;

  FrameScanner(FrameFields fields) {
    this.fields = fields;
  }

  /**
   * Whether the {@code length} bytes of {@code buffer} from {@code offset} were read into the
   * fields. When not, the fields hold nothing to rely on and the line must be read by the token
   * path.
   */
  boolean scan(byte[] buffer, int offset, int length) {
    this.buffer = buffer;
    this.end = offset + length;
    fields.clear();
    try {
      return line(offset);
    } finally {
      this.buffer = null;
    }
  }

  private boolean line(int p) {
    p = whitespace(p);
    if (at(p) != '{') {
      return false;
    }
    p = whitespace(p + 1);
    if (at(p) == '}') {
      p++;
    } else {
      while (true) {
        p = field(p);
        if (p == UNSURE) {
          return false;
        }
        p = whitespace(p);
        int b = at(p);
        if (b == '}') {
          p++;
          break;
        }
        if (b != ',') {
          return false;
        }
        p = whitespace(p + 1);
      }
    }
    return whitespace(p) == end;
  }

  /** One member of the frame, from its name's opening quote to the end of its value. */
  private int field(int p) {
    if (at(p) != '"') {
      return UNSURE;
    }
    int name = p + 1;
    int close = plainAscii(name);
    if (at(close) != '"' || close - name > MAX_NAME_BYTES) {
      return UNSURE;
    }
    int length = close - name;
    p = whitespace(close + 1);
    if (at(p) != ':') {
      return UNSURE;
    }
    p = whitespace(p + 1);
    if (named(KIND, name, length)) {
      p = headScalar(FrameFields.KIND, p);
      fields.kind = scalar;
    } else if (named(SNAPSHOT_ID, name, length)) {
      p = headScalar(FrameFields.SNAPSHOT_ID, p);
      fields.snapshotId = scalar;
    } else if (named(SNAPSHOT_AT, name, length)) {
      p = headScalar(FrameFields.SNAPSHOT_AT, p);
      fields.snapshotAt = scalar;
    } else if (named(TIMESTAMP, name, length)) {
      p = headScalar(FrameFields.TIMESTAMP, p);
      fields.timestamp = scalar;
    } else if (named(STORE, name, length)) {
      p = headScalar(FrameFields.STORE, p);
      fields.store = scalar;
    } else if (named(SEQ, name, length)) {
      p = headScalar(-1, p);
      fields.seq = scalar;
    } else if (named(TOTAL, name, length)) {
      p = headScalar(-1, p);
      fields.total = scalar;
    } else if (named(BYTES, name, length)) {
      p = headScalar(-1, p);
      fields.bytes = scalar;
    } else if (named(ROW_KEY, name, length)) {
      p = headScalar(-1, p);
      fields.rowKey = scalar;
    } else if (named(ROW_COUNT, name, length)) {
      p = headScalar(-1, p);
      fields.rowCount = scalar;
    } else if (named(COMPLETED_AT, name, length)) {
      p = headScalar(-1, p);
      fields.completedAt = scalar;
    } else if (named(RECORD, name, length)) {
      int start = p;
      p = value(p, 2);
      if (p != UNSURE) {
        fields.record = RawRecord.withDigest(Arrays.copyOfRange(buffer, start, p), digest);
      }
    } else {
      // A field that is not the envelope's: read to be sure the line is valid, then ignored.
      p = value(p, 2);
    }
    return p;
  }

  /**
   * A head value into {@link #scalar}: a string of printable ASCII without escapes (reusing the
   * previous frame's string in {@code slot} when equal, unless {@code slot} is negative) or an
   * integer of at most 18 digits; anything else is left to the token path.
   */
  private int headScalar(int slot, int p) {
    int b = at(p);
    if (b == '"') {
      int start = p + 1;
      int close = plainAscii(start);
      if (at(close) != '"' || close - start > MAX_STRING_BYTES) {
        return UNSURE;
      }
      int length = close - start;
      String previous = slot < 0 ? null : fields.recent[slot];
      if (previous != null && sameAscii(previous, start, length)) {
        scalar = previous;
      } else {
        String text = new String(buffer, start, length, StandardCharsets.ISO_8859_1);
        if (slot >= 0) {
          fields.recent[slot] = text;
        }
        scalar = text;
      }
      return close + 1;
    }
    boolean negative = b == '-';
    int q = negative ? p + 1 : p;
    int first = at(q);
    if (!isDigit(first)) {
      return UNSURE;
    }
    long value = 0;
    int digits = 0;
    while (isDigit(b = at(q))) {
      value = value * 10 + (b - '0');
      digits++;
      q++;
    }
    if ((first == '0' && digits > 1) || digits > LONG_DIGITS || b == '.' || b == 'e' || b == 'E') {
      return UNSURE;
    }
    scalar = negative ? -value : value;
    return q;
  }

  /** A JSON value into {@link #digest}; {@code depth} counts the containers it stands in. */
  private int value(int p, int depth) {
    switch (at(p)) {
      case '{':
        return object(p + 1, depth + 1);
      case '[':
        return array(p + 1, depth + 1);
      case '"':
        return string(p + 1, false);
      case 't':
        digest = CanonicalDigest.TRUE;
        return literal(p, TRUE);
      case 'f':
        digest = CanonicalDigest.FALSE;
        return literal(p, FALSE);
      case 'n':
        digest = CanonicalDigest.NULL;
        return literal(p, NULL);
      case '-':
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9':
        return number(p);
      default:
        return UNSURE;
    }
  }

  private int object(int p, int depth) {
    if (depth > MAX_DEPTH) {
      return UNSURE;
    }
    p = whitespace(p);
    if (at(p) == '}') {
      digest = CanonicalDigest.objectEnd(0, 0);
      return p + 1;
    }
    long sum = 0;
    long members = 0;
    while (true) {
      if (at(p) != '"') {
        return UNSURE;
      }
      p = string(p + 1, true);
      if (p == UNSURE) {
        return UNSURE;
      }
      long key = digest;
      p = whitespace(p);
      if (at(p) != ':') {
        return UNSURE;
      }
      p = value(whitespace(p + 1), depth);
      if (p == UNSURE) {
        return UNSURE;
      }
      sum += CanonicalDigest.member(key, digest);
      members++;
      p = whitespace(p);
      int b = at(p);
      if (b == '}') {
        digest = CanonicalDigest.objectEnd(sum, members);
        return p + 1;
      }
      if (b != ',') {
        return UNSURE;
      }
      p = whitespace(p + 1);
    }
  }

  private int array(int p, int depth) {
    if (depth > MAX_DEPTH) {
      return UNSURE;
    }
    long hash = CanonicalDigest.ARRAY;
    p = whitespace(p);
    if (at(p) == ']') {
      digest = CanonicalDigest.arrayEnd(hash);
      return p + 1;
    }
    while (true) {
      p = value(p, depth);
      if (p == UNSURE) {
        return UNSURE;
      }
      hash = CanonicalDigest.arrayElement(hash, digest);
      p = whitespace(p);
      int b = at(p);
      if (b == ']') {
        digest = CanonicalDigest.arrayEnd(hash);
        return p + 1;
      }
      if (b != ',') {
        return UNSURE;
      }
      p = whitespace(p + 1);
    }
  }

  /**
   * A string's digest, from the byte after its opening quote to the byte after its closing one. In
   * a member {@code name}, Jackson refuses a surrogate escape that does not pair up, so the scanner
   * leaves every surrogate escape in a name to it.
   */
  private int string(int p, boolean name) {
    int maxBytes = name ? MAX_NAME_BYTES : MAX_STRING_BYTES;
    int start = p;
    long hash = CanonicalDigest.STRING;
    int units = 0;
    while (true) {
      if (p - start > maxBytes) {
        return UNSURE;
      }
      int b = at(p);
      if (b < 0x80) {
        if (b == '"') {
          digest = CanonicalDigest.stringEnd(hash, units);
          return p + 1;
        }
        int unit;
        if (b == '\\') {
          unit = escaped(at(p + 1));
          if (unit == 'u') {
            unit = hex4(p + 2);
            if (name && unit >= 0xD800 && unit <= 0xDFFF) {
              return UNSURE;
            }
            p += 6;
          } else {
            p += 2;
          }
        } else {
          unit = b < 0x20 ? UNSURE : b; // a control character, or the end of the line (-1)
          p++;
        }
        if (unit == UNSURE) {
          return UNSURE;
        }
        hash = CanonicalDigest.stringUnit(hash, unit);
        units++;
      } else if (b < 0xE0) {
        int c1 = continuation(p + 1);
        if (b < 0xC2 || c1 == UNSURE) {
          return UNSURE; // a stray continuation byte, or an overlong two-byte form
        }
        hash = CanonicalDigest.stringUnit(hash, (b & 0x1F) << 6 | c1);
        units++;
        p += 2;
      } else if (b < 0xF0) {
        // E0 needs A0..BF after it (else overlong), ED needs 80..9F (else a surrogate).
        int c1 = at(p + 1);
        int low = b == 0xE0 ? 0xA0 : 0x80;
        int high = b == 0xED ? 0x9F : 0xBF;
        int c2 = continuation(p + 2);
        if (c1 < low || c1 > high || c2 == UNSURE) {
          return UNSURE;
        }
        hash = CanonicalDigest.stringUnit(hash, (b & 0x0F) << 12 | (c1 & 0x3F) << 6 | c2);
        units++;
        p += 3;
      } else if (b <= 0xF4) {
        // F0 needs 90..BF after it (else overlong), F4 needs 80..8F (else beyond U+10FFFF).
        int c1 = at(p + 1);
        int low = b == 0xF0 ? 0x90 : 0x80;
        int high = b == 0xF4 ? 0x8F : 0xBF;
        int c2 = continuation(p + 2);
        int c3 = continuation(p + 3);
        if (c1 < low || c1 > high || c2 == UNSURE || c3 == UNSURE) {
          return UNSURE;
        }
        int codePoint = ((b & 0x07) << 18 | (c1 & 0x3F) << 12 | c2 << 6 | c3) - 0x10000;
        hash = CanonicalDigest.stringUnit(hash, 0xD800 | codePoint >>> 10);
        hash = CanonicalDigest.stringUnit(hash, 0xDC00 | codePoint & 0x3FF);
        units += 2;
        p += 4;
      } else {
        return UNSURE;
      }
    }
  }

  /** The unit a one-letter escape stands for, {@code 'u'} for a {@code \\u} escape, else unsure. */
  private static int escaped(int letter) {
    return switch (letter) {
      case '"', '\\', '/', 'u' -> letter;
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      default -> UNSURE;
    };
  }

  private int hex4(int p) {
    int unit = 0;
    for (int i = 0; i < 4; i++) {
      int b = at(p + i);
      int digit;
      if (b >= '0' && b <= '9') {
        digit = b - '0';
      } else if (b >= 'a' && b <= 'f') {
        digit = b - 'a' + 10;
      } else if (b >= 'A' && b <= 'F') {
        digit = b - 'A' + 10;
      } else {
        return UNSURE;
      }
      unit = unit << 4 | digit;
    }
    return unit;
  }

  /** The six payload bits of a UTF-8 continuation byte at {@code p}, else unsure. */
  private int continuation(int p) {
    int b = at(p);
    return (b & 0xC0) == 0x80 ? b & 0x3F : UNSURE;
  }

  /**
   * A number's digest by its exact value: {@code unscaled * 10^-scale} in a long when the mantissa
   * has at most 18 digits, else through BigDecimal as the token path does.
   */
  private int number(int p) {
    int start = p;
    boolean negative = at(p) == '-';
    if (negative) {
      p++;
    }
    int b = at(p);
    if (!isDigit(b)) {
      return UNSURE;
    }
    long unscaled = 0;
    int digits = 0;
    int integerDigits = 0;
    while (isDigit(b = at(p))) {
      if (++digits <= LONG_DIGITS) {
        unscaled = unscaled * 10 + (b - '0');
      }
      integerDigits++;
      p++;
    }
    if (at(start + (negative ? 1 : 0)) == '0' && integerDigits > 1) {
      return UNSURE; // a leading zero, which JSON does not allow
    }
    int fractionDigits = 0;
    if (b == '.') {
      p++;
      if (!isDigit(at(p))) {
        return UNSURE;
      }
      while (isDigit(b = at(p))) {
        if (++digits <= LONG_DIGITS) {
          unscaled = unscaled * 10 + (b - '0');
        }
        fractionDigits++;
        p++;
      }
    }
    int exponent = 0;
    if (b == 'e' || b == 'E') {
      p++;
      b = at(p);
      boolean negativeExponent = b == '-';
      if (b == '-' || b == '+') {
        p++;
      }
      if (!isDigit(at(p))) {
        return UNSURE;
      }
      int exponentDigits = 0;
      while (isDigit(b = at(p))) {
        if (++exponentDigits > MAX_EXPONENT_DIGITS) {
          return UNSURE;
        }
        exponent = exponent * 10 + (b - '0');
        p++;
      }
      if (negativeExponent) {
        exponent = -exponent;
      }
    }
    if (p - start > MAX_NUMBER_LENGTH) {
      return UNSURE;
    }
    if (digits <= LONG_DIGITS) {
      digest =
          CanonicalDigest.ofDecimal(negative ? -unscaled : unscaled, fractionDigits - exponent);
    } else {
      String text = new String(buffer, start, p - start, StandardCharsets.ISO_8859_1);
      digest = CanonicalDigest.ofDecimal(new BigDecimal(text));
    }
    return p;
  }

  private int literal(int p, byte[] word) {
    for (int i = 0; i < word.length; i++) {
      if (at(p + i) != word[i]) {
        return UNSURE;
      }
    }
    return p + word.length;
  }

  /** The first position from {@code p} holding anything but printable ASCII other than " and \. */
  private int plainAscii(int p) {
    while (p < end) {
      byte b = buffer[p];
      if (b < 0x20 || b == '"' || b == '\\') {
        return p; // also stops at every non-ASCII byte, which is negative
      }
      p++;
    }
    return p;
  }

  private boolean named(byte[] name, int start, int length) {
    return length == name.length && Arrays.equals(buffer, start, start + length, name, 0, length);
  }

  private boolean sameAscii(String text, int start, int length) {
    if (text.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (text.charAt(i) != buffer[start + i]) {
        return false;
      }
    }
    return true;
  }

  private int whitespace(int p) {
    while (p < end) {
      byte b = buffer[p];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        break;
      }
      p++;
    }
    return p;
  }

  /** The unsigned byte at {@code p}, or -1 at the end of the line. */
  private int at(int p) {
    return p < end ? buffer[p] & 0xFF : -1;
  }

  private static boolean isDigit(int b) {
    return b >= '0' && b <= '9';
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
