/**
 * How requests authenticate: {@link dfe.fetcher.rest.auth.AuthMode} registers each mode, one {@link
 * dfe.fetcher.rest.auth.Credentials} class each; {@link dfe.fetcher.rest.auth.Authorizer} puts them
 * only on requests to {@code base_url}'s {@link dfe.fetcher.rest.auth.Origin}, and {@link
 * dfe.fetcher.rest.auth.TokenCache} keeps an open connection's OAuth2 token, which {@code
 * TokenEndpoint} fetches.
 */
package dfe.fetcher.rest.auth;
