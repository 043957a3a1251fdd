/**
 * {@code sources.rest}: the family's entry points. {@link dfe.fetcher.rest.RestSourceFamily} binds
 * an instance and its profile into a {@link dfe.fetcher.rest.RestConnection}; opening it ({@link
 * dfe.fetcher.rest.OpenRestConnection}) makes one HTTP client and a {@code RowSource} per enabled
 * unit: {@link dfe.fetcher.rest.RestDump} or {@link dfe.fetcher.rest.RestWindows}.
 *
 * <p>The sub-packages by role: {@code profile} (the YAML profiles, their binding and templates),
 * {@code auth} (auth modes, credentials, the token cache), {@code http} (one request: retries, the
 * rate, the body's stall bound) and {@code page} (the page loop, pagers, decoders).
 */
package dfe.fetcher.rest;
