/**
 * The contract every source family plugs into: a {@link dfe.fetcher.source.SourceFamily} binds its
 * configuration section into {@link dfe.fetcher.source.SourceConnection}s, whose {@link
 * dfe.fetcher.source.SourceConnection#open open} yields a {@link dfe.fetcher.core.row.RowSource}
 * per unit. See {@code docs/architecture.md}.
 */
package dfe.fetcher.source;
