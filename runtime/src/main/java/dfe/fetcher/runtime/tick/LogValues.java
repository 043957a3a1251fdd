package dfe.fetcher.runtime.tick;

/** Values written into {@code key="value"} log fields, so a line stays one parseable event. */
final class LogValues {

  private LogValues() {}

  /** {@code value} with backslashes, quotes and line breaks escaped, for inside double quotes. */
  static String quoted(String value) {
    StringBuilder escaped = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> escaped.append("\\\\");
        case '"' -> escaped.append("\\\"");
        case '\n' -> escaped.append("\\n");
        case '\r' -> escaped.append("\\r");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
