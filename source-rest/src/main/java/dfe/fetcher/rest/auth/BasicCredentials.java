package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.config.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/** {@code basic}: {@code Authorization: Basic base64(user:password)}. */
record BasicCredentials(String user, Secret password) implements Credentials {

  BasicCredentials {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  static Credentials bind(AuthSettings settings) {
    return new BasicCredentials(
        settings.auth().requiredString("user").orElse(""), settings.secret("password"));
  }

  /** The {@code Authorization} value for {@code user} and {@code password} (RFC 7617). */
  static String header(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public AuthMode mode() {
    return AuthMode.BASIC;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation) {
    request.header("Authorization", header(user, password.reveal()));
  }
}
