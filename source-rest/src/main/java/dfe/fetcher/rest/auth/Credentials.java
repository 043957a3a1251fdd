package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.net.URI;

/**
 * An instance's {@code auth}, bound: one implementation per {@link AuthMode}, each a value (a
 * record) made by its mode's binder and shared by every opening of the instance.
 *
 * <p>What an implementation is handed and can rely on:
 *
 * <ul>
 *   <li>Its binder gets the {@link AuthSettings}: the instance's {@code auth}, already checked for
 *       keys that do not apply to the mode, the profile's defaults, and a resolver for secret
 *       specs. It reports every problem through the settings' sections and still returns a value
 *       (placeholders for what is missing), so that binding goes on and reports everything at once;
 *       it never throws for a bad configuration.
 *   <li>{@link #authorize} and {@link #withCredential} are called only for requests to {@code
 *       base_url}'s origin: the {@link Authorizer} checks the origin, so an implementation never
 *       decides where its credential may go.
 *   <li>Secrets are {@code Secret}s, resolved on every use (a rotated file is read afresh); one
 *       that cannot be read throws {@code SecretUnavailableException}, which fails the request with
 *       a message naming the setting.
 *   <li>What lives longer than one request (an OAuth2 token) is kept in the {@link TokenCache} it
 *       is handed, one per open connection, never in the credentials themselves.
 * </ul>
 *
 * <p>What it must not do: log, put a secret or a token in an exception message or in {@code
 * toString} (a {@code Secret} prints as {@code ***}), or send a request other than through the
 * token cache.
 */
public interface Credentials {

  /** The mode this is bound for, as {@code auth.mode} names it. */
  AuthMode mode();

  /**
   * Puts the credential on {@code request} (a header), for a request to an origin credentials go
   * to. The request is complete but for what this adds: a signing mode signs what it sees.
   *
   * @throws SourceException when a token cannot be had, naming the token endpoint, never a secret
   */
  void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException;

  /** {@code uri} with the credential added to its query, when that is how it travels. */
  default URI withCredential(URI uri) {
    return uri;
  }

  /** {@code rawQuery} safe to print: a credential it carries shows as {@code ***}. */
  default String masked(String rawQuery) {
    return rawQuery;
  }

  /** Whether a 401 may mean the credential expired, so that one fresh try is worth it. */
  default boolean refreshes() {
    return false;
  }

  /**
   * Where credentials may go beyond {@code base_url}'s origin, and the connection's TLS and proxy:
   * bound by {@link AuthMode#bind} for every mode from {@code auth}'s {@code allow_hosts}, {@code
   * other_origins}, {@code tls} and {@code proxy}, never by a mode's own binder.
   */
  default AuthReach reach() {
    return AuthReach.BASE_ORIGIN_ONLY;
  }

  /**
   * These credentials as {@code unit} asks for them (an endpoint's {@code auth}): a mode that takes
   * one of its keys applies it, any other mode is as it is.
   */
  default Credentials narrowed(UnitAuth unit) {
    return this;
  }

  /** {@code none}: what an instance without {@code auth} sends. */
  static Credentials none() {
    return new NoCredentials();
  }
}
