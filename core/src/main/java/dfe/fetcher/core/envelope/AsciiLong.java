package dfe.fetcher.core.envelope;

import java.nio.charset.StandardCharsets;

/**
 * A {@code long} written as JSON digits straight into a byte array, as {@link Long#toString} spells
 * it, without the intermediate string: the encoders size their output exactly with {@link #length}
 * and fill it with {@link #write}.
 */
public final class AsciiLong {

  private AsciiLong() {}

  /** How many bytes {@code value} takes. */
  public static int length(long value) {
    if (value < 0) {
      return value == Long.MIN_VALUE ? 20 : 1 + length(-value);
    }
    // Comparisons, not divisions: this runs twice per number on the tick's hot path.
    long bound = 10;
    for (int digits = 1; digits < 19; digits++) {
      if (value < bound) {
        return digits;
      }
      bound *= 10;
    }
    return 19;
  }

  /** Writes {@code value} at {@code offset}; returns the index just past it. */
  public static int write(long value, byte[] dest, int offset) {
    if (value == Long.MIN_VALUE) {
      byte[] text = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(text, 0, dest, offset, text.length);
      return offset + text.length;
    }
    int end = offset + length(value);
    long rest = value;
    if (rest < 0) {
      dest[offset] = '-';
      rest = -rest;
    }
    int i = end;
    do {
      dest[--i] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest != 0);
    return end;
  }
}
