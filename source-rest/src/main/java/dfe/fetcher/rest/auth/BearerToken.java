package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.config.Secret;
import java.util.Objects;

/** {@code bearer}: {@code Authorization: Bearer <token>}. */
record BearerToken(Secret token) implements Credentials {

  BearerToken {
    Objects.requireNonNull(token, "token");
  }

  static Credentials bind(AuthSettings settings) {
    return new BearerToken(settings.secret("token", Secret.Characters.HTTP_HEADER));
  }

  @Override
  public AuthMode mode() {
    return AuthMode.BEARER;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation) {
    request.header("Authorization", "Bearer " + token.reveal());
  }
}
