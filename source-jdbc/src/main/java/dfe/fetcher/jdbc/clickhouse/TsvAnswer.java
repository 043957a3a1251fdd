package dfe.fetcher.jdbc.clickhouse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A ClickHouse answer in {@code TabSeparatedWithNamesAndTypes}, read row by row off the stream: the
 * column names, their types, then one line per row, fields split at tabs (a value's own tabs and
 * newlines are escaped, so a raw newline always ends a row). Memory holds two rows.
 *
 * <p><b>An exception after the answer began.</b> ClickHouse sends {@code 200 OK} with the first
 * rows and, when the query fails later (it was killed, {@code max_result_rows} or {@code
 * max_execution_time} was reached), appends its exception text as a last line and ends the stream
 * as if it had finished. So a row is handed out only once the line after it was read: a last line
 * that holds {@code DB::Exception} is that exception, never a row, and a line whose fields do not
 * match the columns fails the answer; a stream that ends inside a line broke off. The price: a
 * result whose last row holds the text {@code DB::Exception} is refused (never ended).
 */
final class TsvAnswer {

  /**
   * The answer is not a complete TabSeparated result; {@code fromServer} when ClickHouse said so.
   */
  static final class BrokenAnswerException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean fromServer;

    BrokenAnswerException(String message, boolean fromServer) {
      super(message);
      this.fromServer = fromServer;
    }

    /** Whether the message is ClickHouse's own exception text (to be redacted, then shown). */
    boolean fromServer() {
      return fromServer;
    }
  }

  private static final byte[] EXCEPTION_MARK = "DB::Exception".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_ERROR_CHARS = 4_000;

  private final InputStream in;
  private final byte[] buffer = new byte[64 * 1024];
  private int bufferAt;
  private int bufferEnd;
  private boolean eof;

  private Line current = new Line();
  private Line pending = new Line();
  private boolean pendingRead;
  private int columns;
  private int[] starts = new int[16];
  private int[] ends = new int[16];

  TsvAnswer(InputStream in) {
    this.in = in;
  }

  /** One line's bytes, without its newline; {@code ended} when a newline closed it. */
  private static final class Line {
    byte[] bytes = new byte[256];
    int length;
    boolean present;
    boolean ended;
  }

  /** The header: the column names and their types' text, as ClickHouse wrote them. */
  record Header(List<String> names, List<String> types) {}

  /**
   * Reads the two header lines.
   *
   * @throws BrokenAnswerException when the answer is an exception or has no header
   */
  Header header() throws IOException, BrokenAnswerException {
    List<String> names = headerLine("names");
    List<String> types = headerLine("types");
    if (names.size() != types.size()) {
      throw new BrokenAnswerException(
          "the answer names " + names.size() + " columns but gives " + types.size() + " types",
          false);
    }
    columns = names.size();
    starts = new int[columns];
    ends = new int[columns];
    return new Header(names, types);
  }

  private List<String> headerLine(String what) throws IOException, BrokenAnswerException {
    Line line = new Line();
    if (!readLine(line)) {
      throw new BrokenAnswerException("the answer ended before its line of column " + what, false);
    }
    if (!line.ended || contains(line, EXCEPTION_MARK)) {
      throw brokenBy(line);
    }
    List<String> fields = new ArrayList<>();
    ValueBytes value = new ValueBytes();
    int start = 0;
    for (int i = 0; i <= line.length; i++) {
      if (i == line.length || line.bytes[i] == '\t') {
        try {
          value.unescapeField(line.bytes, start, i);
        } catch (ClickHouseType.BadValueException e) {
          throw new BrokenAnswerException(
              "the answer's column " + what + ": " + e.getMessage(), false);
        }
        fields.add(value.text());
        start = i + 1;
      }
    }
    return fields;
  }

  /**
   * Moves to the next row; false once the answer ended complete.
   *
   * @throws BrokenAnswerException when ClickHouse appended an exception, a line is not a row of the
   *     columns, or the stream ended inside a line
   */
  boolean next() throws IOException, BrokenAnswerException {
    if (!pendingRead) {
      readLine(pending);
      pendingRead = true;
    }
    Line swap = current;
    current = pending;
    pending = swap;
    if (!current.present) {
      return false;
    }
    readLine(pending);
    boolean last = !pending.present;
    if (!current.ended || (last && contains(current, EXCEPTION_MARK))) {
      throw brokenBy(current);
    }
    if (!split(current)) {
      throw brokenBy(current);
    }
    return true;
  }

  byte[] line() {
    return current.bytes;
  }

  int start(int column) {
    return starts[column];
  }

  int end(int column) {
    return ends[column];
  }

  private boolean split(Line line) {
    int field = 0;
    int start = 0;
    byte[] bytes = line.bytes;
    for (int i = 0; i < line.length; i++) {
      if (bytes[i] == '\t') {
        if (field == columns - 1) {
          return false;
        }
        starts[field] = start;
        ends[field++] = i;
        start = i + 1;
      }
    }
    if (field != columns - 1) {
      return false;
    }
    starts[field] = start;
    ends[field] = line.length;
    return true;
  }

  private BrokenAnswerException brokenBy(Line line) {
    String text =
        new String(line.bytes, 0, Math.min(line.length, MAX_ERROR_CHARS), StandardCharsets.UTF_8);
    int code = text.indexOf("Code: ");
    if (code >= 0 && contains(line, EXCEPTION_MARK)) {
      return new BrokenAnswerException(text.substring(code), true);
    }
    if (!line.ended) {
      return new BrokenAnswerException("the answer broke off inside a row", false);
    }
    return new BrokenAnswerException(
        "a line of the answer is not a row of its " + columns + " columns", false);
  }

  /** Reads one line into {@code line}; false (and {@code present} false) at the end. */
  private boolean readLine(Line line) throws IOException {
    line.length = 0;
    line.ended = false;
    line.present = false;
    while (true) {
      if (bufferAt == bufferEnd) {
        if (eof || !fill()) {
          return line.present;
        }
      }
      line.present = true;
      int newline = -1;
      for (int i = bufferAt; i < bufferEnd; i++) {
        if (buffer[i] == '\n') {
          newline = i;
          break;
        }
      }
      int until = newline < 0 ? bufferEnd : newline;
      append(line, until - bufferAt);
      bufferAt = newline < 0 ? bufferEnd : newline + 1;
      if (newline >= 0) {
        line.ended = true;
        return true;
      }
    }
  }

  private void append(Line line, int count) {
    if (line.length + count > line.bytes.length) {
      line.bytes = Arrays.copyOf(line.bytes, Math.max(line.bytes.length * 2, line.length + count));
    }
    System.arraycopy(buffer, bufferAt, line.bytes, line.length, count);
    line.length += count;
  }

  private boolean fill() throws IOException {
    int read = in.read(buffer, 0, buffer.length);
    if (read < 0) {
      eof = true;
      return false;
    }
    bufferAt = 0;
    bufferEnd = read;
    return true;
  }

  private static boolean contains(Line line, byte[] mark) {
    outer:
    for (int i = 0; i + mark.length <= line.length; i++) {
      for (int k = 0; k < mark.length; k++) {
        if (line.bytes[i + k] != mark[k]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
