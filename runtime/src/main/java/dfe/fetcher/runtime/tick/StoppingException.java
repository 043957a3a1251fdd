package dfe.fetcher.runtime.tick;

/** The service is stopping: the source must stop pulling rows, and no wait goes on. */
final class StoppingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StoppingException() {
    super("the service is stopping", null, false, false);
  }
}
