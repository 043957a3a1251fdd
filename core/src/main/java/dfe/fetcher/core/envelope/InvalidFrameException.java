package dfe.fetcher.core.envelope;

/** Bytes that are not a valid frame; the message says what is wrong with them. */
public final class InvalidFrameException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidFrameException(String reason) {
    super(reason);
  }
}
