package dfe.fetcher.file.dump;

import java.io.IOException;

/** The file's content breaks its format at {@link #line()}; the message says how. */
final class InvalidRecordException extends IOException {

  private static final long serialVersionUID = 1L;

  private final long line;

  InvalidRecordException(long line, String message) {
    super(message);
    this.line = line;
  }

  InvalidRecordException(long line, String message, Throwable cause) {
    super(message, cause);
    this.line = line;
  }

  long line() {
    return line;
  }
}
