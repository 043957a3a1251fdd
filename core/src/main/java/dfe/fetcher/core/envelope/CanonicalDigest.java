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

  static final long NULL = 0x6a09e667f3bcc908L;
  static final long TRUE = 0xbb67ae8584caa73bL;
  static final long FALSE = 0x3c6ef372fe94f82bL;

  /** The state a string's hash starts from; see {@link #stringUnit} and {@link #stringEnd}. */
  static final long STRING = 0xa54ff53a5f1d36f1L;

  /** The state an array's hash starts from; see {@link #arrayElement} and {@link #arrayEnd}. */
  static final long ARRAY = 0x1f83d9abfb41bd6bL;

  private static final long NUMBER = 0x510e527fade682d1L;
  private static final long BIG_NUMBER = 0x9b05688c2b3e6c1fL;
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
            sum += member(key, value);
            members++;
          }
          return objectEnd(sum, members);
        }
      case START_ARRAY:
        {
          long hash = ARRAY;
          while (parser.nextToken() != JsonToken.END_ARRAY) {
            hash = arrayElement(hash, ofCurrentValue(parser));
          }
          return arrayEnd(hash);
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

  /*
   * The building blocks below are the whole definition of the digest: ofCurrentValue combines them
   * from Jackson's tokens, FrameScanner from a line's bytes, and both must give the same value.
   */

  /** One member of an object, added to the object's sum whatever the members' order. */
  static long member(long key, long value) {
    return mix(key * MULTIPLIER + value);
  }

  /** An object's digest from the sum of its {@link #member members} and their count. */
  static long objectEnd(long sum, long members) {
    return mix(OBJECT ^ mix(sum + members));
  }

  /** The array hash after one more element, starting from {@link #ARRAY}. */
  static long arrayElement(long hash, long element) {
    return mix(hash * MULTIPLIER + element);
  }

  static long arrayEnd(long hash) {
    return mix(hash);
  }

  /** The string hash after one more UTF-16 code unit, starting from {@link #STRING}. */
  static long stringUnit(long hash, int unit) {
    return (hash ^ unit) * 0x100000001b3L;
  }

  /** A string's digest from its hash and its length in UTF-16 code units. */
  static long stringEnd(long hash, int length) {
    return mix(hash + length);
  }

  private static long ofString(String text) {
    long hash = STRING;
    for (int i = 0; i < text.length(); i++) {
      hash = stringUnit(hash, text.charAt(i));
    }
    return stringEnd(hash, text.length());
  }

  private static long ofChars(char[] chars, int offset, int length) {
    long hash = STRING;
    for (int i = offset; i < offset + length; i++) {
      hash = stringUnit(hash, chars[i]);
    }
    return stringEnd(hash, length);
  }

  /** The digest of a number of any size, by its exact decimal value. */
  static long ofDecimal(BigDecimal value) {
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
  static long ofDecimal(long unscaled, int scale) {
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
