package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.net.URI;
import java.util.Objects;

/**
 * A mode's credentials with the {@link AuthReach} its instance set: everything the mode does is its
 * own, only {@link #reach()} is added. Made by {@link AuthMode#bind} for every mode, so no mode
 * binds {@code allow_hosts}, {@code tls} or {@code proxy} itself.
 */
record ScopedCredentials(Credentials credentials, AuthReach reach) implements Credentials {

  ScopedCredentials {
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(reach, "reach");
  }

  @Override
  public AuthMode mode() {
    return credentials.mode();
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    credentials.authorize(request, context, cancellation);
  }

  @Override
  public URI withCredential(URI uri) {
    return credentials.withCredential(uri);
  }

  @Override
  public String masked(String rawQuery) {
    return credentials.masked(rawQuery);
  }

  @Override
  public boolean refreshes() {
    return credentials.refreshes();
  }

  @Override
  public Credentials narrowed(UnitAuth unit) {
    return new ScopedCredentials(credentials.narrowed(unit), reach);
  }
}
