package dfe.fetcher.rest.auth;

import java.util.Objects;

/**
 * A mode's credentials with the {@link AuthReach} its instance set: everything the mode does is its
 * own, only {@link #reach()} is added. Made by {@link AuthMode#bind} for every mode, so no mode
 * binds {@code allow_hosts}, {@code tls} or {@code proxy} itself.
 */
record ScopedCredentials(Credentials credentials, AuthReach reach)
    implements ForwardingCredentials {

  ScopedCredentials {
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(reach, "reach");
  }

  @Override
  public Credentials narrowed(UnitAuth unit) {
    return new ScopedCredentials(credentials.narrowed(unit), reach);
  }
}
