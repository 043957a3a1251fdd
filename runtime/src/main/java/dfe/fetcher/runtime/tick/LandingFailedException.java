package dfe.fetcher.runtime.tick;

/** Landing or committing failed; the tick must stop without an end or a later checkpoint. */
final class LandingFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  LandingFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
