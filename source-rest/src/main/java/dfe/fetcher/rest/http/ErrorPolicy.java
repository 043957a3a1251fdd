package dfe.fetcher.rest.http;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code errors}: what a non-2xx answer of an endpoint means, the profile's setting with the
 * endpoint's over it key by key. Redirects and the one token refresh on a 401 come first and are
 * not part of it.
 *
 * @param retryOn the statuses tried again after a back-off; empty for the default, 408, 429 and
 *     every 5xx. A throttle is waited out whether or not its status is here
 * @param neverRetry statuses never tried again, whatever {@code retryOn} or a throttle says
 * @param ignoreStatus statuses that mean "nothing here": a listing's first request answering one is
 *     an empty, final page
 * @param throttleWhen a CEL condition over {@code status} and {@code body} that makes an answer a
 *     throttle, as a 429 is
 * @param retryNonIdempotent whether a POST is tried again after an error that is not a throttle (a
 *     5xx, a timeout, a connection error), when the server may have acted on it
 */
public record ErrorPolicy(
    Optional<Set<Integer>> retryOn,
    Set<Integer> neverRetry,
    Set<Integer> ignoreStatus,
    Optional<ThrottleCondition> throttleWhen,
    boolean retryNonIdempotent) {

  public static final ErrorPolicy DEFAULT =
      new ErrorPolicy(Optional.empty(), Set.of(), Set.of(), Optional.empty(), false);

  public ErrorPolicy {
    retryOn = retryOn.map(ErrorPolicy::sorted);
    neverRetry = sorted(neverRetry);
    ignoreStatus = sorted(ignoreStatus);
    Objects.requireNonNull(throttleWhen, "throttleWhen");
  }

  private static Set<Integer> sorted(Set<Integer> statuses) {
    return Collections.unmodifiableSet(new TreeSet<>(statuses));
  }

  /** Whether an answer with {@code status} that is not a throttle is worth another try. */
  public boolean retries(int status) {
    if (neverRetry.contains(status)) {
      return false;
    }
    return retryOn.map(statuses -> statuses.contains(status)).orElse(RetryPolicy.retries(status));
  }

  /** Whether a throttle answered with {@code status} is waited out and tried again. */
  public boolean waitsOutThrottle(int status) {
    return !neverRetry.contains(status);
  }

  public boolean ignores(int status) {
    return ignoreStatus.contains(status);
  }

  /** Whether a request sent with {@code method} may be tried again after a non-throttle error. */
  public boolean retriesMethod(String method) {
    return retryNonIdempotent || !method.equals("POST");
  }
}
