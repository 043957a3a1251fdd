package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts an instance's credentials on a request, but only on a request to {@code base_url}'s origin
 * or one of its {@code allow_hosts}, and keeps the open connection's {@link AuthContext}. No
 * message or log line made here or in the token cache holds a secret or a token.
 */
public final class Authorizer {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");

  private final Credentials credentials;
  private final Set<Origin> allowed;
  private final AuthContext context;
  private final AtomicLong withheld = new AtomicLong();

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
    Set<Origin> allowed = new LinkedHashSet<>();
    allowed.add(origin);
    allowed.addAll(credentials.reach().allowHosts());
    this.allowed = Set.copyOf(allowed);
    this.context =
        new AuthContext(clock, origin, new TokenEndpoint(client, watchdog, retry, timeoutSecs));
  }

  /** Whether a 401 is worth one more try with a fresh token. */
  public boolean refreshes() {
    return credentials.refreshes();
  }

  /** Whether credentials go to {@code uri}: base_url's origin or one of {@code allow_hosts}. */
  public boolean reaches(URI uri) {
    return allowed.contains(Origin.of(uri));
  }

  /** The URI to request: {@code uri} with the key's query parameter when that is how it is sent. */
  public URI uri(URI uri) {
    return allowed.contains(Origin.of(uri)) ? credentials.withCredential(uri) : uri;
  }

  /**
   * Adds the credential, when {@code uri} is at the base origin or one of {@code allow_hosts}; a
   * request to any other origin goes without it, or is refused with {@code other_origins: refuse},
   * and is counted ({@link #credentialsWithheld}).
   */
  public void authorize(HttpRequest.Builder request, URI uri, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Origin to = Origin.of(uri);
    if (!allowed.contains(to)) {
      withheld.incrementAndGet();
      if (credentials.reach().refuseOtherOrigins()) {
        throw new SourceException(
            describe(uri)
                + " is on "
                + to
                + ", to which credentials do not go: not base_url's origin nor one of"
                + " allow_hosts, and "
                + credentials.reach().at()
                + ".other_origins is refuse");
      }
      LOG.debug("event=rest_credentials_withheld origin=\"{}\"", to);
      return;
    }
    credentials.authorize(new OutgoingRequest(request), context, cancellation);
  }

  /**
   * How many requests went to an origin credentials do not go to (sent without them or refused)
   * since the connection opened. The requester publishes each one per unit as {@code
   * dfe_fetcher_rest_credentials_withheld_total}.
   */
  public long credentialsWithheld() {
    return withheld.get();
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
