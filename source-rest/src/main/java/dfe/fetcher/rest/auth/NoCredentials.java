package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import java.net.http.HttpRequest;

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
  public void authorize(
      HttpRequest.Builder request, TokenCache tokens, Cancellation cancellation) {}
}
