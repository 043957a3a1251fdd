package dfe.fetcher.core.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A 64-bit digest of a JSON value's canonical form, computed while streaming its tokens.
 *
 * <p>Two values get the same digest when they are the same JSON value: object members are combined
 * without regard to order, and numbers are hashed by their exact decimal value (so {@code 1},
 * {@code 1.0} and {@code 10e-1} agree). The Reassembler keeps this digest instead of the record
 * when it only verifies; it is not a cryptographic hash and is not meant to resist crafted input.
 */
final class CanonicalDigest {

  private static final JsonFactory JSON = new JsonFactory();

  private static final long NULL = 0x6a09e667f3bcc908L;
  private static final long TRUE = 0xbb67ae8584caa73bL;
  private static final long FALSE = 0x3c6ef372fe94f82bL;
  private static final long STRING = 0xa54ff53a5f1d36f1L;
  private static final long NUMBER = 0x510e527fade682d1L;
  private static final long BIG_NUMBER = 0x9b05688c2b3e6c1fL;
  private static final long ARRAY = 0x1f83d9abfb41bd6bL;
  private static final long OBJECT = 0x5be0cd19137e2179L;
  private static final long MULTIPLIER = 0x9e3779b97f4a7c15L;

  private CanonicalDigest() {}

  /** The digest of the single JSON value in {@code json}. */
  static long of(byte[] json) {
    try (JsonParser parser = JSON.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new IllegalArgumentException("record is empty, not a JSON value");
      }
      long digest = ofCurrentValue(parser);
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException("record holds more than one JSON value");
      }
      return digest;
    } catch (IOException e) {
      throw new IllegalArgumentException("record is not valid JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The digest of the value whose first token is the parser's current token. Leaves the parser on
   * the value's last token.
   */
  static long ofCurrentValue(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT:
        {
          long sum = 0;
          long members = 0;
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            long key = ofString(parser.currentName());
            parser.nextToken();
            long value = ofCurrentValue(parser);
            sum += mix(key * MULTIPLIER + value);
            members++;
          }
          return mix(OBJECT ^ mix(sum + members));
        }
      case START_ARRAY:
        {
          long hash = ARRAY;
          while (parser.nextToken() != JsonToken.END_ARRAY) {
            hash = mix(hash * MULTIPLIER + ofCurrentValue(parser));
          }
          return mix(hash);
        }
      case VALUE_STRING:
        return ofChars(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
      case VALUE_NUMBER_INT:
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          return ofDecimal(new BigDecimal(parser.getBigIntegerValue()));
        }
        return ofDecimal(parser.getLongValue(), 0);
      case VALUE_NUMBER_FLOAT:
        return ofDecimal(parser.getDecimalValue());
      case VALUE_TRUE:
        return TRUE;
      case VALUE_FALSE:
        return FALSE;
      case VALUE_NULL:
        return NULL;
      default:
        throw new IOException("unexpected token " + token + " where a JSON value starts");
    }
  }

  private static long ofString(String text) {
    long hash = STRING;
    for (int i = 0; i < text.length(); i++) {
      hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
    }
    return mix(hash + text.length());
  }

  private static long ofChars(char[] chars, int offset, int length) {
    long hash = STRING;
    for (int i = offset; i < offset + length; i++) {
      hash = (hash ^ chars[i]) * 0x100000001b3L;
    }
    return mix(hash + length);
  }

  private static long ofDecimal(BigDecimal value) {
    if (value.signum() == 0) {
      return ofDecimal(0, 0);
    }
    BigDecimal stripped = value.stripTrailingZeros();
    BigInteger unscaled = stripped.unscaledValue();
    if (unscaled.bitLength() < 64) {
      return ofDecimal(unscaled.longValue(), stripped.scale());
    }
    long hash = BIG_NUMBER;
    for (byte b : unscaled.toByteArray()) {
      hash = (hash ^ b) * 0x100000001b3L;
    }
    return mix(hash * MULTIPLIER + stripped.scale());
  }

  /** The digest of {@code unscaled * 10^-scale}, after stripping trailing decimal zeros. */
  private static long ofDecimal(long unscaled, int scale) {
    if (unscaled == 0) {
      scale = 0;
    }
    while (unscaled != 0 && unscaled % 10 == 0) {
      unscaled /= 10;
      scale--;
    }
    return mix(NUMBER ^ mix(unscaled) + (long) scale * MULTIPLIER);
  }

  /**
   * Stafford's variant 13 of the MurmurHash3 finaliser: every input bit affects every output bit.
   */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
