/**
 * The four enrichment fields ({@code _timestamp_fetcher}, {@code _timestamp_received}, {@code
 * _source}, {@code _source_fetcher}) and how they are added to frames and tail records without
 * re-serialising them. {@link dfe.fetcher.core.enrich.Enrichment} holds the contract, including the
 * decisions it makes: a record that is not a JSON object is wrapped under {@code _record}; a
 * collision renames the record's key, not the enrichment's.
 */
package dfe.fetcher.core.enrich;
