package dfe.fetcher.file.dump;

import java.io.IOException;

/**
 * The file's content breaks its format at {@link #line()} (and {@link #column()} when known); the
 * message says how, never quoting the content.
 */
final class InvalidRecordException extends IOException {

  private static final long serialVersionUID = 1L;

  private final long line;
  private final long column;

  InvalidRecordException(long line, String message) {
    this(line, 0, message, null);
  }

  InvalidRecordException(long line, String message, Throwable cause) {
    this(line, 0, message, cause);
  }

  /**
   * @param column 1-based, in bytes from the start of the line; 0 when unknown
   */
  InvalidRecordException(long line, long column, String message, Throwable cause) {
    super(message, cause);
    this.line = line;
    this.column = column;
  }

  long line() {
    return line;
  }

  /** {@code LINE} or {@code LINE:COLUMN}: the place after the file name. */
  String place() {
    return column > 0 ? line + ":" + column : Long.toString(line);
  }
}
