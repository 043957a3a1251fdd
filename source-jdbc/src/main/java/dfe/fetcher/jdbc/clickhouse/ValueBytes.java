package dfe.fetcher.jdbc.clickhouse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One value's bytes with ClickHouse's escapes undone, in a buffer reused from value to value (a
 * dump allocates nothing per field for it). Not thread-safe.
 */
final class ValueBytes {

  private byte[] data = new byte[64];
  private int length;

  byte[] data() {
    return data;
  }

  int length() {
    return length;
  }

  void reset() {
    length = 0;
  }

  void add(byte b) {
    if (length == data.length) {
      data = Arrays.copyOf(data, data.length * 2);
    }
    data[length++] = b;
  }

  /** Whether the TabSeparated field {@code line[from, to)} is NULL ({@code \N}). */
  static boolean isNullField(byte[] line, int from, int to) {
    return to - from == 2 && line[from] == '\\' && line[from + 1] == 'N';
  }

  /** Takes the TabSeparated field {@code line[from, to)}, its backslash escapes undone. */
  void unescapeField(byte[] line, int from, int to) throws ClickHouseType.BadValueException {
    reset();
    for (int i = from; i < to; i++) {
      byte b = line[i];
      if (b != '\\') {
        add(b);
        continue;
      }
      if (++i == to) {
        throw new ClickHouseType.BadValueException("a value ends in a lone backslash");
      }
      i = unescape(line, i, to);
    }
  }

  /**
   * Undoes the escape whose letter is at {@code line[at]} (the backslash before it consumed), adds
   * what it stands for, and returns the index of its last byte.
   */
  int unescape(byte[] line, int at, int to) throws ClickHouseType.BadValueException {
    byte letter = line[at];
    switch (letter) {
      case 'b' -> add((byte) '\b');
      case 'f' -> add((byte) '\f');
      case 'n' -> add((byte) '\n');
      case 'r' -> add((byte) '\r');
      case 't' -> add((byte) '\t');
      case '0' -> add((byte) 0);
      case 'a' -> add((byte) 7);
      case 'v' -> add((byte) 11);
      case 'x' -> {
        if (at + 2 >= to) {
          throw new ClickHouseType.BadValueException("a \\x escape without two hex digits");
        }
        add((byte) (hex(line[at + 1]) << 4 | hex(line[at + 2])));
        return at + 2;
      }
      case 'N' -> throw new ClickHouseType.BadValueException("NULL inside a value");
      default -> add(letter); // \\, \', \" and any other escaped byte stand for themselves
    }
    return at;
  }

  private static int hex(byte b) throws ClickHouseType.BadValueException {
    int digit = Character.digit(b, 16);
    if (digit < 0) {
      throw new ClickHouseType.BadValueException("a \\x escape with a byte that is not hex");
    }
    return digit;
  }

  /**
   * Whether the bytes are well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
   */
  boolean isUtf8() {
    int i = 0;
    while (i < length) {
      int b = data[i] & 0xFF;
      if (b < 0x80) {
        i++;
        continue;
      }
      int extra;
      int min;
      int code;
      if (b >= 0xC2 && b <= 0xDF) {
        extra = 1;
        min = 0x80;
        code = b & 0x1F;
      } else if (b >= 0xE0 && b <= 0xEF) {
        extra = 2;
        min = 0x800;
        code = b & 0x0F;
      } else if (b >= 0xF0 && b <= 0xF4) {
        extra = 3;
        min = 0x10000;
        code = b & 0x07;
      } else {
        return false;
      }
      for (int k = 1; k <= extra; k++) {
        if (i + k >= length) {
          return false;
        }
        int next = data[i + k] & 0xFF;
        if ((next & 0xC0) != 0x80) {
          return false;
        }
        code = code << 6 | (next & 0x3F);
      }
      if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return false;
      }
      i += extra + 1;
    }
    return true;
  }

  /** The bytes as text; only for ASCII-only values (numbers, dates) and checked UTF-8. */
  String text() {
    return new String(data, 0, length, StandardCharsets.UTF_8);
  }

  byte[] copy() {
    return Arrays.copyOf(data, length);
  }
}
