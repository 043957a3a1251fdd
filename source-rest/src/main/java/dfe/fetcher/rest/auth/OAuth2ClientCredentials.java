package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code oauth2_client_credentials}: a token from {@code token_url} (RFC 6749 section 4.4, the
 * client authenticating with HTTP Basic), sent as a bearer token and kept in the connection's
 * {@link TokenCache}.
 */
record OAuth2ClientCredentials(
    URI tokenUrl, String clientId, Secret clientSecret, Optional<String> scope)
    implements Credentials, TokenSource<String> {

  OAuth2ClientCredentials {
    Objects.requireNonNull(tokenUrl, "tokenUrl");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clientSecret, "clientSecret");
    Objects.requireNonNull(scope, "scope");
  }

  private static final String WHAT = "the token endpoint";

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
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    request.header("Authorization", "Bearer " + context.token(this, cancellation));
  }

  @Override
  public Issued<String> issue(AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String form =
        "grant_type=client_credentials"
            + scope.map(s -> "&scope=" + URLEncoder.encode(s, StandardCharsets.UTF_8)).orElse("");
    TokenEndpoint endpoint = context.endpoint();
    HttpRequest request =
        TokenEndpoint.build(
            endpoint
                .form(tokenUrl, form)
                .header("Authorization", BasicCredentials.header(clientId, clientSecret.reveal())),
            WHAT);
    TokenEndpoint.Answer answer =
        endpoint.exchange(request, WHAT, "check client_id and client_secret", cancellation);
    TokenEndpoint.Token token =
        TokenEndpoint.accessToken(answer.body(), TokenEndpoint.describe(WHAT, tokenUrl));
    return new Issued<>(token.value(), token.expiresInSecs());
  }

  @Override
  public boolean refreshes() {
    return true;
  }
}
