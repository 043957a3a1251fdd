package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.time.Clock;

/**
 * What a mode is handed for one open connection: its clock (signing dates, token expiry), the base
 * origin (where a login request goes), the {@link TokenEndpoint} every token, login or STS request
 * goes through, and the {@link TokenCache} that keeps what they issue.
 */
public final class AuthContext {

  private final Clock clock;
  private final Origin origin;
  private final TokenEndpoint endpoint;
  private final TokenCache tokens;

  AuthContext(Clock clock, Origin origin, TokenEndpoint endpoint) {
    this.clock = clock;
    this.origin = origin;
    this.endpoint = endpoint;
    this.tokens = new TokenCache(clock);
  }

  public Clock clock() {
    return clock;
  }

  public Origin origin() {
    return origin;
  }

  TokenEndpoint endpoint() {
    return endpoint;
  }

  TokenCache tokens() {
    return tokens;
  }

  /** What {@code source} issued and is still good, else a new one from it (see TokenCache). */
  <T> T token(TokenSource<T> source, Cancellation cancellation)
      throws SourceException, InterruptedException {
    return tokens.token(source, this, cancellation);
  }
}
