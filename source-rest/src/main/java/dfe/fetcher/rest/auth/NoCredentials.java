package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;

/** {@code none}: requests go as they are. */
record NoCredentials() implements Credentials {

  static Credentials bind(AuthSettings settings) {
    return new NoCredentials();
  }

  @Override
  public AuthMode mode() {
    return AuthMode.NONE;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation) {}
}
