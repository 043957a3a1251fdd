package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonProcessingException;
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

  /**
   * Jackson's refusal of a file's content as {@code format} ({@code CSV}, {@code JSON}), placed
   * where Jackson says, or on {@code currentLine} when it says nowhere. Not chained: Jackson's
   * message quotes the content.
   */
  static InvalidRecordException refusedByParser(
      JsonProcessingException refusal, String format, long currentLine) {
    return new InvalidRecordException(
        refusal.getLocation() == null ? currentLine : refusal.getLocation().getLineNr(),
        refusal.getLocation() == null ? 0 : refusal.getLocation().getColumnNr(),
        "not valid " + format + ": " + ParseProblem.describe(refusal),
        null);
  }

  long line() {
    return line;
  }

  /** {@code LINE} or {@code LINE:COLUMN}: the place after the file name. */
  String place() {
    return column > 0 ? line + ":" + column : Long.toString(line);
  }
}
