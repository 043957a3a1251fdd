package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.net.URI;

/**
 * Credentials that wrap a mode's own and hand it everything they do not change: the wrappers
 * ({@link ScopedCredentials}, {@link PerUnitCredentials}) say only what they add.
 */
interface ForwardingCredentials extends Credentials {

  /** The credentials wrapped. */
  Credentials credentials();

  @Override
  default AuthMode mode() {
    return credentials().mode();
  }

  @Override
  default void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    credentials().authorize(request, context, cancellation);
  }

  @Override
  default URI withCredential(URI uri) {
    return credentials().withCredential(uri);
  }

  @Override
  default String masked(String rawQuery) {
    return credentials().masked(rawQuery);
  }

  @Override
  default boolean refreshes() {
    return credentials().refreshes();
  }
}
