package dfe.fetcher.core.row;

/** A source could not read its input; the message names the place, e.g. {@code FILE:LINE}. */
public final class SourceException extends Exception {

  private static final long serialVersionUID = 1L;

  public SourceException(String message) {
    super(message);
  }

  public SourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
