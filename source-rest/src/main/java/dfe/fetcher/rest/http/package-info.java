/**
 * One logical request of a unit: {@link dfe.fetcher.rest.http.Requester} sends it until a 2xx
 * answer, judging every other answer by the endpoint's {@link dfe.fetcher.rest.http.ErrorPolicy}
 * (retries per {@link dfe.fetcher.rest.http.RetryPolicy}, throttles waited out as {@link
 * dfe.fetcher.rest.http.RateLimitHeaders} ask, redirects within the origin), paced by the unit's
 * {@link dfe.fetcher.rest.http.RateLimit} and the connection's {@link
 * dfe.fetcher.rest.http.BudgetGate}, its body bounded by a {@link
 * dfe.fetcher.rest.http.StallGuard}.
 */
package dfe.fetcher.rest.http;
