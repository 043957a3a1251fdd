package dfe.fetcher.rest.auth;

import dfe.fetcher.rest.profile.ConfigWord;
import dfe.fetcher.rest.profile.SectionVariant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How requests authenticate ({@code auth.mode}): the one place a mode is registered, with the keys
 * it takes under {@code auth} and the binder of its {@link Credentials}. A new mode is a class
 * implementing {@link Credentials} and one entry here.
 */
public enum AuthMode implements SectionVariant {
  NONE("none", List.of(), NoCredentials::bind),
  BEARER("bearer", List.of("token"), BearerToken::bind),
  BASIC("basic", List.of("user", "password"), BasicCredentials::bind),
  API_KEY("api_key", List.of("key", "header", "prefix", "query_param"), ApiKey::bind),
  OAUTH2_CLIENT_CREDENTIALS(
      "oauth2_client_credentials",
      List.of(
          "token_url",
          "client_id",
          "client_secret",
          "scope",
          "grant",
          "refresh_token",
          "client_auth",
          "audience",
          "private_key",
          "key_id"),
      OAuth2ClientCredentials::bind),
  SIGV4(
      "sigv4",
      List.of(
          "access_key_id",
          "secret_access_key",
          "session_token",
          "region",
          "service",
          "role_arn",
          "sts_endpoint",
          "role_session_name"),
      AwsSigV4::bind),
  HEADERS("headers", List.of("headers"), SecretHeaders::bind),
  SESSION_LOGIN(
      "session_login",
      List.of(
          "login_method",
          "login_path",
          "login_body",
          "token_pointer",
          "token_header",
          "ttl_secs",
          "expires_in_pointer",
          "header",
          "prefix"),
      SessionLogin::bind),
  SIGNATURE(
      "signature",
      List.of("preset", "integration_key", "secret_key", "signature_version"),
      SignedRequests::bind),
  JWT_BEARER(
      "jwt_bearer",
      List.of(
          "token_url",
          "issuer",
          "subject",
          "audience",
          "scope",
          "private_key",
          "key_id",
          "assertion_lifetime_secs"),
      JwtBearer::bind);

  /** Binds one mode's credentials, as {@link Credentials} states. */
  @FunctionalInterface
  interface Binder {
    Credentials bind(AuthSettings settings);
  }

  private final String configName;
  private final List<String> keys;
  private final Binder binder;

  AuthMode(String configName, List<String> keys, Binder binder) {
    this.configName = configName;
    this.keys = keys;
    this.binder = binder;
  }

  @Override
  public String configName() {
    return configName;
  }

  /**
   * The keys under {@code auth} this mode takes, beside {@code mode}: its own, then those every
   * mode takes ({@link AuthReach}).
   */
  @Override
  public List<String> keys() {
    return Stream.concat(keys.stream(), AuthReach.KEYS.stream()).toList();
  }

  /**
   * The mode's credentials from {@code settings}, with the reach every mode takes, every problem
   * reported there.
   */
  public Credentials bind(AuthSettings settings) {
    Credentials credentials = binder.bind(settings);
    AuthReach reach = AuthReach.bind(settings);
    return reach.isBaseOriginOnly() ? credentials : new ScopedCredentials(credentials, reach);
  }

  public static Optional<AuthMode> named(String name) {
    return ConfigWord.named(AuthMode.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(AuthMode.class);
  }

  /** Every key {@code auth} takes: {@code mode}, then each one's in the order registered. */
  public static List<String> sectionKeys() {
    return SectionVariant.sectionKeys(AuthMode.class, "mode");
  }
}
