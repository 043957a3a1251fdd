package dfe.fetcher.rest.auth;

import dfe.fetcher.source.config.Secret;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * An instance's {@code auth}: the mode and its secrets, resolved on every use (a rotated file is
 * read afresh). Every {@code toString} prints secrets as {@code ***}.
 */
public sealed interface Credentials {

  AuthMode mode();

  /** {@code none}. */
  record None() implements Credentials {
    @Override
    public AuthMode mode() {
      return AuthMode.NONE;
    }
  }

  /** {@code bearer}: {@code Authorization: Bearer <token>}. */
  record Bearer(Secret token) implements Credentials {
    public Bearer {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public AuthMode mode() {
      return AuthMode.BEARER;
    }
  }

  /** {@code basic}: {@code Authorization: Basic base64(user:password)}. */
  record Basic(String user, Secret password) implements Credentials {
    public Basic {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public AuthMode mode() {
      return AuthMode.BASIC;
    }
  }

  /**
   * {@code api_key}: the key in a header ({@code header}, after {@code prefix}, e.g. {@code SSWS })
   * or in a query parameter ({@code query_param}).
   */
  record ApiKey(Secret key, Optional<String> header, String prefix, Optional<String> queryParam)
      implements Credentials {
    public ApiKey {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(header, "header");
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(queryParam, "queryParam");
    }

    @Override
    public AuthMode mode() {
      return AuthMode.API_KEY;
    }
  }

  /**
   * {@code oauth2_client_credentials}: a token from {@code token_url} (RFC 6749 section 4.4, the
   * client authenticating with HTTP Basic), sent as a bearer token.
   */
  record OAuth2ClientCredentials(
      URI tokenUrl, String clientId, Secret clientSecret, Optional<String> scope)
      implements Credentials {
    public OAuth2ClientCredentials {
      Objects.requireNonNull(tokenUrl, "tokenUrl");
      Objects.requireNonNull(clientId, "clientId");
      Objects.requireNonNull(clientSecret, "clientSecret");
      Objects.requireNonNull(scope, "scope");
    }

    @Override
    public AuthMode mode() {
      return AuthMode.OAUTH2_CLIENT_CREDENTIALS;
    }
  }
}
