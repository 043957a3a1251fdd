package dfe.fetcher.source.config;

/**
 * A secret that cannot be resolved: its environment variable is unset, its file unreadable, or its
 * value holds a character its use cannot carry ({@link Secret#requiring}). The message names the
 * setting and the variable, file or character, never a value.
 */
public final class SecretUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SecretUnavailableException(String message) {
    super(message);
  }

  public SecretUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
