package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code oauth2_client_credentials}: a token from {@code token_url} (RFC 6749 section 4.4, the
 * client authenticating with HTTP Basic), sent as a bearer token and kept in the connection's
 * {@link TokenCache}.
 */
record OAuth2ClientCredentials(
    URI tokenUrl, String clientId, Secret clientSecret, Optional<String> scope)
    implements Credentials {

  OAuth2ClientCredentials {
    Objects.requireNonNull(tokenUrl, "tokenUrl");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clientSecret, "clientSecret");
    Objects.requireNonNull(scope, "scope");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    Optional<String> tokenUrl = settings.string("token_url");
    URI uri = URI.create("http://invalid/");
    if (tokenUrl.isEmpty()) {
      auth.report("token_url", "is required for oauth2_client_credentials");
    } else {
      try {
        uri = new URI(tokenUrl.get());
        if (uri.getHost() == null
            || !(uri.getScheme().equalsIgnoreCase("https")
                || uri.getScheme().equalsIgnoreCase("http"))) {
          auth.report("token_url", "must be an http or https URL");
        }
      } catch (URISyntaxException e) {
        auth.report("token_url", "is not a URL: " + e.getReason());
      }
    }
    String clientId = auth.requiredString("client_id").orElse("");
    Secret clientSecret = settings.secret("client_secret");
    Optional<String> scope = settings.string("scope");
    return new OAuth2ClientCredentials(uri, clientId, clientSecret, scope);
  }

  @Override
  public AuthMode mode() {
    return AuthMode.OAUTH2_CLIENT_CREDENTIALS;
  }

  @Override
  public void authorize(HttpRequest.Builder request, TokenCache tokens, Cancellation cancellation)
      throws SourceException, InterruptedException {
    request.header("Authorization", "Bearer " + tokens.token(this, cancellation));
  }

  @Override
  public boolean refreshes() {
    return true;
  }
}
