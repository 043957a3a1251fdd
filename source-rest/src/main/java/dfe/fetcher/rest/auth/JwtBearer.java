package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * {@code jwt_bearer}: a service account's private key signs a JWT ({@link JwtAssertion}: {@code
 * issuer}, {@code subject}, {@code audience}, {@code scope}) that {@code token_url} exchanges for
 * an access token (RFC 7523 section 2.1, {@code grant_type=urn:ietf:params:oauth:grant-type:
 * jwt-bearer}), as Google and Salesforce take; the token is sent as a bearer token and kept in the
 * connection's {@link TokenCache}.
 */
record JwtBearer(URI tokenUrl, JwtAssertion assertion, String at)
    implements Credentials, TokenSource<String> {

  static final String GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  private static final String WHAT = "the token endpoint";

  JwtBearer {
    Objects.requireNonNull(tokenUrl, "tokenUrl");
    Objects.requireNonNull(assertion, "assertion");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    URI tokenUrl = settings.requiredUrl("token_url", AuthMode.JWT_BEARER);
    String issuer = settings.required("issuer", AuthMode.JWT_BEARER);
    JwtAssertion assertion =
        new JwtAssertion(
            issuer,
            auth.string("subject").orElse(issuer),
            settings.string("audience").orElse(tokenUrl.toString()),
            settings.string("scope"),
            auth.integer("assertion_lifetime_secs", 3_600, 60, 3_600),
            auth.string("key_id"),
            settings.secret("private_key"),
            auth.pathOf("private_key"));
    return new JwtBearer(tokenUrl, assertion, auth.path());
  }

  @Override
  public AuthMode mode() {
    return AuthMode.JWT_BEARER;
  }

  /** The unit's own {@code scope} claim, when it names one. */
  @Override
  public Credentials narrowed(UnitAuth unit) {
    if (unit.scope().isEmpty()) {
      return this;
    }
    JwtAssertion a = assertion;
    return new JwtBearer(
        tokenUrl,
        new JwtAssertion(
            a.issuer(),
            a.subject(),
            a.audience(),
            unit.scope(),
            a.lifetimeSecs(),
            a.keyId(),
            a.privateKey(),
            a.at()),
        at);
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
        "grant_type="
            + URLEncoder.encode(GRANT, StandardCharsets.UTF_8)
            + "&assertion="
            + assertion.sign(context.clock().instant());
    HttpRequest request = TokenEndpoint.build(context.endpoint().form(tokenUrl, form), WHAT);
    TokenEndpoint.Answer answer =
        context
            .endpoint()
            .exchange(
                request,
                WHAT,
                "check issuer, subject, audience and private_key (" + at + ")",
                cancellation);
    TokenEndpoint.Token token =
        TokenEndpoint.accessToken(answer.body(), TokenEndpoint.describe(WHAT, tokenUrl));
    return new Issued<>(token.value(), token.expiresInSecs());
  }

  @Override
  public boolean refreshes() {
    return true;
  }
}
