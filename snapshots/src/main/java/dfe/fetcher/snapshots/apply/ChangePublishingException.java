package dfe.fetcher.snapshots.apply;

/** The changes topic did not accept a change event, so the swap it belongs to was not made. */
public final class ChangePublishingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ChangePublishingException(String message, Throwable cause) {
    super(message, cause);
  }
}
