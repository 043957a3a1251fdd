package dfe.fetcher.jdbc.clickhouse;

/**
 * Walks an array or tuple field of a TabSeparated answer: ClickHouse writes the elements in its
 * quoted form ({@code ['a\tb',NULL]}, {@code (1,'x')}, {@code [1.50,nan]}): strings, dates, UUIDs
 * and enum names in single quotes with backslash escapes, numbers bare, {@code NULL} for a NULL.
 * The field needs no TabSeparated unescaping first: the quoted form never holds a raw tab, newline
 * or lone backslash.
 */
final class QuotedCursor {

  private final byte[] line;
  private final int to;
  private final ValueBytes value = new ValueBytes();
  private int at;

  QuotedCursor(byte[] line, int from, int to) {
    this.line = line;
    this.at = from;
    this.to = to;
  }

  void expect(char c) throws ClickHouseType.BadValueException {
    skipSpaces();
    if (at >= to || line[at] != c) {
      throw new ClickHouseType.BadValueException("expected '" + c + "' in an array or tuple");
    }
    at++;
  }

  boolean consumeIf(char c) {
    skipSpaces();
    if (at < to && line[at] == c) {
      at++;
      return true;
    }
    return false;
  }

  void expectEnd() throws ClickHouseType.BadValueException {
    skipSpaces();
    if (at != to) {
      throw new ClickHouseType.BadValueException("text after the end of an array or tuple");
    }
  }

  /** Consumes {@code NULL} when it comes next. */
  boolean consumeNull() {
    skipSpaces();
    if (to - at >= 4
        && line[at] == 'N'
        && line[at + 1] == 'U'
        && line[at + 2] == 'L'
        && line[at + 3] == 'L'
        && (at + 4 == to || isDelimiter(line[at + 4]))) {
      at += 4;
      return true;
    }
    return false;
  }

  /**
   * The next scalar: a quoted string's content with its escapes undone, or a bare token (a number,
   * {@code nan}, {@code inf}); null for {@code NULL}. The buffer is reused by the next call.
   */
  ValueBytes scalar() throws ClickHouseType.BadValueException {
    if (consumeNull()) {
      return null;
    }
    value.reset();
    if (at < to && line[at] == '\'') {
      at++;
      while (true) {
        if (at >= to) {
          throw new ClickHouseType.BadValueException("a quoted value without its closing quote");
        }
        byte b = line[at];
        if (b == '\'') {
          at++;
          return value;
        }
        if (b == '\\') {
          if (++at >= to) {
            throw new ClickHouseType.BadValueException("a value ends in a lone backslash");
          }
          at = value.unescape(line, at, to) + 1;
        } else {
          value.add(b);
          at++;
        }
      }
    }
    int start = at;
    while (at < to && !isDelimiter(line[at])) {
      value.add(line[at++]);
    }
    if (at == start) {
      throw new ClickHouseType.BadValueException("an empty element in an array or tuple");
    }
    return value;
  }

  private void skipSpaces() {
    while (at < to && line[at] == ' ') {
      at++;
    }
  }

  private static boolean isDelimiter(byte b) {
    return b == ',' || b == ']' || b == ')' || b == ' ';
  }
}
