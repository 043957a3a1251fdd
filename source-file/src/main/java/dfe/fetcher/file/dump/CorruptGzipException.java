package dfe.fetcher.file.dump;

import java.io.IOException;

/** The file's gzip data is cut short or damaged; the message says which, for the operator. */
final class CorruptGzipException extends IOException {

  private static final long serialVersionUID = 1L;

  private CorruptGzipException(String message, Throwable cause) {
    super(message, cause);
  }

  static CorruptGzipException truncated(IOException cause) {
    return new CorruptGzipException(
        "the gzip data ends early (truncated file): " + cause.getMessage(), cause);
  }

  static CorruptGzipException corrupt(IOException cause) {
    return new CorruptGzipException("corrupt gzip data: " + cause.getMessage(), cause);
  }
}
