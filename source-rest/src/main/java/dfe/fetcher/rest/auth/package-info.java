/**
 * How requests authenticate: {@link dfe.fetcher.rest.auth.AuthMode} registers each mode, one {@link
 * dfe.fetcher.rest.auth.Credentials} class each; {@link dfe.fetcher.rest.auth.Authorizer} puts them
 * only on requests to {@code base_url}'s {@link dfe.fetcher.rest.auth.Origin}, and {@link
 * dfe.fetcher.rest.auth.TokenCache} keeps an open connection's token (an OAuth2 token, a session,
 * temporary AWS keys), which the mode's {@code TokenSource} asks for through {@code TokenEndpoint}.
 * A signing mode sees the whole {@link dfe.fetcher.rest.auth.OutgoingRequest}.
 */
package dfe.fetcher.rest.auth;
