/**
 * The pages of one dump or window: {@link dfe.fetcher.rest.page.Listing} requests page after page
 * (loop detection, {@code max_pages}, {@code fail_when}), {@link
 * dfe.fetcher.rest.page.PageDecoding} turns a body into rows with its {@link
 * dfe.fetcher.rest.page.Decoder}, and a {@link dfe.fetcher.rest.page.Pager}, one class per {@link
 * dfe.fetcher.rest.page.PagerType}, says what to request next.
 */
package dfe.fetcher.rest.page;
