package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;

/**
 * Something a mode asks for and keeps while it is good: an OAuth2 access token, a session token,
 * temporary AWS keys. Asked for through {@link AuthContext#endpoint()} only, so every such request
 * is bounded and retried alike.
 *
 * @param <T> what is issued
 */
@FunctionalInterface
interface TokenSource<T> {

  /** What was issued and for how long it is good. */
  record Issued<T>(T value, long expiresInSecs) {
    @Override
    public String toString() {
      return "Issued[***, expires_in=" + expiresInSecs + "]";
    }
  }

  /**
   * Asks for a new one.
   *
   * @throws SourceException naming the endpoint and the config path, never a secret
   */
  Issued<T> issue(AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException;
}
