package dfe.fetcher.runtime.transport;

/** A batch could not be landed; the message names the topic and what went wrong. */
public final class TransportException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
