package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One open connection's token (an OAuth2 access token, a session token, temporary AWS keys): issued
 * on first use by the mode's {@link TokenSource} and kept until shortly before it expires ({@value
 * #EXPIRY_MARGIN_SECS}s); {@link #invalidate} drops it after a 401 so the next request fetches a
 * new one. A connection has one mode, so one source: what is held is always of that source's type.
 *
 * <p>Thread-safe, and no lock is held while a token is fetched: one unit's request fetches it, and
 * a unit that needs it meanwhile waits for that fetch, bounded by the fetch's own bounds and ended
 * at once by its own tick's cancellation. A unit holding a token still good never waits. A fetch
 * that was stopped (its tick cancelled) is taken over by the next unit that needs the token; one
 * that failed fails every unit that waited for it with the same reason.
 */
public final class TokenCache {

  static final long EXPIRY_MARGIN_SECS = 30;

  private record Held(Object value, Instant expires) {}

  private final Clock clock;
  private final Object lock = new Object();
  private Held held;
  private CompletableFuture<Object> fetching;

  TokenCache(Clock clock) {
    this.clock = clock;
  }

  void invalidate() {
    synchronized (lock) {
      held = null;
    }
  }

  <T> T token(TokenSource<T> source, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    while (true) {
      CompletableFuture<Object> shared;
      boolean fetchHere;
      synchronized (lock) {
        if (held != null && clock.instant().isBefore(held.expires())) {
          return cast(held.value());
        }
        fetchHere = fetching == null;
        if (fetchHere) {
          fetching = new CompletableFuture<>();
        }
        shared = fetching;
      }
      if (fetchHere) {
        return fetch(source, context, shared, cancellation);
      }
      try {
        return cast(await(shared, cancellation));
      } catch (FetchStopped e) {
        cancellation.throwIfCancelled();
        // The unit that was fetching was stopped; this one fetches next round.
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Object held) {
    return (T) held;
  }

  private <T> T fetch(
      TokenSource<T> source,
      AuthContext context,
      CompletableFuture<Object> shared,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    try {
      TokenSource.Issued<T> token = source.issue(context, cancellation);
      Instant expires =
          clock.instant().plusSeconds(Math.max(0, token.expiresInSecs() - EXPIRY_MARGIN_SECS));
      synchronized (lock) {
        held = new Held(token.value(), expires);
        fetching = null;
      }
      shared.complete(token.value());
      return token.value();
    } catch (SourceException | InterruptedException | RuntimeException e) {
      synchronized (lock) {
        fetching = null;
      }
      shared.completeExceptionally(e);
      throw e;
    }
  }

  /** Waits for another unit's fetch; only this unit's cancellation ends the wait early. */
  private static Object await(CompletableFuture<Object> shared, Cancellation cancellation)
      throws SourceException, InterruptedException, FetchStopped {
    CompletableFuture<Object> mine = shared.copy();
    try (Cancellation.Registration cancel = cancellation.onCancel(() -> mine.cancel(false))) {
      return mine.get();
    } catch (CancellationException e) {
      throw new InterruptedException("cancelled: " + cancellation.reason());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SourceException failed) {
        throw new SourceException(failed.getMessage(), failed);
      }
      throw new FetchStopped();
    }
  }

  /** The fetch waited for ended without a token or a reason: its own tick was stopped. */
  private static final class FetchStopped extends Exception {
    private static final long serialVersionUID = 1L;

    FetchStopped() {
      super(null, null, false, false);
    }
  }
}
