/**
 * REST profiles and their binding: the shipped profiles, the keys a profile takes ({@link
 * dfe.fetcher.rest.profile.ProfileKeys}), and the binders that check every key, word and template
 * and report each problem at its place ({@link dfe.fetcher.rest.profile.ProfileBinder} with {@code
 * CredentialsBinder}, {@code EndpointBinder}, {@code PagerBinder}, {@code WindowBinder} and {@code
 * TemplateBinder}). What they produce are values: {@link dfe.fetcher.rest.profile.Endpoint}, {@link
 * dfe.fetcher.rest.profile.Template}, {@link dfe.fetcher.rest.profile.WindowSpec}.
 */
package dfe.fetcher.rest.profile;
