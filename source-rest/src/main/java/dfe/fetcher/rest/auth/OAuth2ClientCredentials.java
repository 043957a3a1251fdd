package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.ConfigWord;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code oauth2_client_credentials}: a token from {@code token_url}, sent as a bearer token and
 * kept in the connection's {@link TokenCache}. The {@code grant} is {@code client_credentials} (RFC
 * 6749 section 4.4, the default) or {@code refresh_token} (section 6, with the {@code
 * refresh_token} secret); the client authenticates ({@code client_auth}) with HTTP Basic ({@code
 * client_secret_basic}, the default), in the form ({@code client_secret_post}), or with a JWT its
 * {@code private_key} signs ({@code private_key_jwt}, RFC 7523 section 2.2 as OpenID Connect
 * profiles it). {@code scope} and {@code audience} go in the form when given.
 */
record OAuth2ClientCredentials(
    URI tokenUrl,
    String clientId,
    Grant grant,
    ClientAuth clientAuth,
    Optional<Secret> clientSecret,
    Optional<Secret> refreshToken,
    Optional<JwtAssertion> clientAssertion,
    Optional<String> scope,
    Optional<String> audience,
    String at)
    implements Credentials, TokenSource<String> {

  /** What the token request asks with ({@code grant}). */
  enum Grant implements ConfigWord {
    CLIENT_CREDENTIALS("client_credentials"),
    REFRESH_TOKEN("refresh_token");

    private final String configName;

    Grant(String configName) {
      this.configName = configName;
    }

    @Override
    public String configName() {
      return configName;
    }
  }

  /** How the client proves who it is to the token endpoint ({@code client_auth}). */
  enum ClientAuth implements ConfigWord {
    CLIENT_SECRET_BASIC("client_secret_basic"),
    CLIENT_SECRET_POST("client_secret_post"),
    PRIVATE_KEY_JWT("private_key_jwt");

    private final String configName;

    ClientAuth(String configName) {
      this.configName = configName;
    }

    @Override
    public String configName() {
      return configName;
    }
  }

  static final String CLIENT_ASSERTION_TYPE =
      "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  /** A client assertion is used once, at once: five minutes is plenty. */
  static final long CLIENT_ASSERTION_LIFETIME_SECS = 300;

  private static final String WHAT = "the token endpoint";

  OAuth2ClientCredentials {
    Objects.requireNonNull(tokenUrl, "tokenUrl");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(grant, "grant");
    Objects.requireNonNull(clientAuth, "clientAuth");
    Objects.requireNonNull(clientSecret, "clientSecret");
    Objects.requireNonNull(refreshToken, "refreshToken");
    Objects.requireNonNull(clientAssertion, "clientAssertion");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(audience, "audience");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    URI tokenUrl = settings.requiredUrl("token_url", AuthMode.OAUTH2_CLIENT_CREDENTIALS);
    String clientId = auth.requiredString("client_id").orElse("");
    Grant grant = word(auth, "grant", Grant.class, Grant.CLIENT_CREDENTIALS);
    ClientAuth clientAuth =
        word(auth, "client_auth", ClientAuth.class, ClientAuth.CLIENT_SECRET_BASIC);
    Optional<Secret> clientSecret = Optional.empty();
    Optional<JwtAssertion> clientAssertion = Optional.empty();
    if (clientAuth == ClientAuth.PRIVATE_KEY_JWT) {
      clientAssertion =
          Optional.of(
              new JwtAssertion(
                  clientId,
                  clientId,
                  tokenUrl.toString(),
                  Optional.empty(),
                  CLIENT_ASSERTION_LIFETIME_SECS,
                  auth.string("key_id"),
                  settings.secret("private_key"),
                  auth.pathOf("private_key")));
      if (auth.node("client_secret").isPresent()) {
        auth.report("client_secret", "does not apply with client_auth private_key_jwt");
      }
    } else {
      clientSecret = Optional.of(settings.secret("client_secret"));
      for (String key : new String[] {"private_key", "key_id"}) {
        if (auth.node(key).isPresent()) {
          auth.report(key, "applies only with client_auth private_key_jwt");
        }
      }
    }
    Optional<Secret> refreshToken = Optional.empty();
    if (grant == Grant.REFRESH_TOKEN) {
      refreshToken = Optional.of(settings.secret("refresh_token"));
    } else if (auth.node("refresh_token").isPresent()) {
      auth.report("refresh_token", "applies only with grant refresh_token");
    }
    return new OAuth2ClientCredentials(
        tokenUrl,
        clientId,
        grant,
        clientAuth,
        clientSecret,
        refreshToken,
        clientAssertion,
        settings.string("scope"),
        settings.string("audience"),
        auth.path());
  }

  private static <W extends Enum<W> & ConfigWord> W word(
      Section auth, String key, Class<W> words, W fallback) {
    Optional<String> name = auth.string(key);
    if (name.isEmpty()) {
      return fallback;
    }
    Optional<W> named = ConfigWord.named(words, name.get());
    if (named.isEmpty()) {
      auth.report(
          key,
          "unknown "
              + key
              + " '"
              + name.get()
              + "'; one of "
              + String.join(", ", ConfigWord.names(words)));
      return fallback;
    }
    return named.get();
  }

  @Override
  public AuthMode mode() {
    return AuthMode.OAUTH2_CLIENT_CREDENTIALS;
  }

  /** The unit's own {@code scope}, when it names one. */
  @Override
  public Credentials narrowed(UnitAuth unit) {
    if (unit.scope().isEmpty()) {
      return this;
    }
    return new OAuth2ClientCredentials(
        tokenUrl,
        clientId,
        grant,
        clientAuth,
        clientSecret,
        refreshToken,
        clientAssertion,
        unit.scope(),
        audience,
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
    StringBuilder form = new StringBuilder("grant_type=").append(grant.configName());
    if (grant == Grant.REFRESH_TOKEN) {
      param(form, "refresh_token", refreshToken.orElseThrow().reveal());
    }
    scope.ifPresent(s -> param(form, "scope", s));
    audience.ifPresent(a -> param(form, "audience", a));
    switch (clientAuth) {
      case CLIENT_SECRET_BASIC -> {}
      case CLIENT_SECRET_POST -> {
        param(form, "client_id", clientId);
        param(form, "client_secret", clientSecret.orElseThrow().reveal());
      }
      case PRIVATE_KEY_JWT -> {
        param(form, "client_id", clientId);
        param(form, "client_assertion_type", CLIENT_ASSERTION_TYPE);
        param(
            form,
            "client_assertion",
            clientAssertion.orElseThrow().sign(context.clock().instant()));
      }
    }
    HttpRequest.Builder builder = context.endpoint().form(tokenUrl, form.toString());
    if (clientAuth == ClientAuth.CLIENT_SECRET_BASIC) {
      builder.header(
          "Authorization", BasicCredentials.header(clientId, clientSecret.orElseThrow().reveal()));
    }
    HttpRequest request = TokenEndpoint.build(builder, WHAT);
    TokenEndpoint.Answer answer =
        context.endpoint().exchange(request, WHAT, refusedHint(), cancellation);
    TokenEndpoint.Token token =
        TokenEndpoint.accessToken(answer.body(), TokenEndpoint.describe(WHAT, tokenUrl));
    return new Issued<>(token.value(), token.expiresInSecs());
  }

  /** What to check when the token endpoint refuses: the settings this request was made of. */
  private String refusedHint() {
    String client =
        clientAuth == ClientAuth.PRIVATE_KEY_JWT
            ? "client_id and private_key"
            : "client_id and client_secret";
    return "check "
        + client
        + (grant == Grant.REFRESH_TOKEN ? ", and refresh_token" : "")
        + " ("
        + at
        + ")";
  }

  private static void param(StringBuilder form, String name, String value) {
    form.append('&')
        .append(name)
        .append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  @Override
  public boolean refreshes() {
    return true;
  }
}
