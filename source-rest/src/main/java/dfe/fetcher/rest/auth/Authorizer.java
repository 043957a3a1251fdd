package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Puts an instance's credentials on a request, but only on a request to {@code base_url}'s origin,
 * and keeps the open connection's {@link AuthContext}. No message or log line made here or in the
 * token cache holds a secret or a token.
 */
public final class Authorizer {

  private final Credentials credentials;
  private final Origin origin;
  private final AuthContext context;

  /**
   * @param watchdog closes a token body that stalls
   * @param retry how a token request that failed for a passing reason is tried again
   * @param timeoutSecs a token request's bound until its response starts and on any stall of its
   *     body
   */
  public Authorizer(
      Credentials credentials,
      Origin origin,
      HttpClient client,
      Clock clock,
      ScheduledExecutorService watchdog,
      RetryPolicy retry,
      int timeoutSecs) {
    this.credentials = credentials;
    this.origin = origin;
    this.context =
        new AuthContext(clock, origin, new TokenEndpoint(client, watchdog, retry, timeoutSecs));
  }

  /** Whether a 401 is worth one more try with a fresh token. */
  public boolean refreshes() {
    return credentials.refreshes();
  }

  /** The URI to request: {@code uri} with the key's query parameter when that is how it is sent. */
  public URI uri(URI uri) {
    return Origin.of(uri).equals(origin) ? credentials.withCredential(uri) : uri;
  }

  /** Adds the credential's header, when {@code uri} is at the base origin. */
  public void authorize(HttpRequest.Builder request, URI uri, Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (!Origin.of(uri).equals(origin)) {
      return;
    }
    credentials.authorize(new OutgoingRequest(request), context, cancellation);
  }

  /** Drops the token after a 401, so the next request fetches a new one. */
  public void invalidate() {
    context.tokens().invalidate();
  }

  /** {@code uri} safe to print: an API key sent as a query parameter shows as {@code ***}. */
  public String describe(URI uri) {
    String text = uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    String query = uri.getRawQuery();
    if (query == null) {
      return text;
    }
    return text + "?" + credentials.masked(query);
  }

  /** A secret that cannot be read fails the request with a message naming the setting only. */
  public static SourceException unavailable(SecretUnavailableException e) {
    return new SourceException(e.getMessage(), e);
  }
}
