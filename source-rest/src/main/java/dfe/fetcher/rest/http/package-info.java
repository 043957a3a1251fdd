/**
 * One logical request of a unit: {@link dfe.fetcher.rest.http.Requester} sends it until a 2xx
 * answer (retries per {@link dfe.fetcher.rest.http.RetryPolicy}, {@code Retry-After}, redirects
 * within the origin), paced by the unit's {@link dfe.fetcher.rest.http.RateLimit}, its body bounded
 * by a {@link dfe.fetcher.rest.http.StallGuard}.
 */
package dfe.fetcher.rest.http;
