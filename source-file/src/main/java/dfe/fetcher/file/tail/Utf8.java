package dfe.fetcher.file.tail;

/** Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
final class Utf8 {

  private Utf8() {}

  /** The index of the first byte of {@code bytes[0, length)} that breaks UTF-8; -1 when none. */
  static int firstInvalid(byte[] bytes, int length) {
    int i = 0;
    while (i < length) {
      int lead = bytes[i] & 0xff;
      if (lead < 0x80) {
        i++;
        continue;
      }
      int count;
      int min;
      if (lead >= 0xc2 && lead <= 0xdf) {
        count = 1;
        min = 0x80;
      } else if (lead >= 0xe0 && lead <= 0xef) {
        count = 2;
        min = 0x800;
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        count = 3;
        min = 0x10000;
      } else {
        return i;
      }
      if (i + count >= length) {
        return i;
      }
      int code = lead & (0x3f >> count);
      for (int k = 1; k <= count; k++) {
        int next = bytes[i + k] & 0xff;
        if ((next & 0xc0) != 0x80) {
          return i;
        }
        code = (code << 6) | (next & 0x3f);
      }
      if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return i;
      }
      i += count + 1;
    }
    return -1;
  }
}
