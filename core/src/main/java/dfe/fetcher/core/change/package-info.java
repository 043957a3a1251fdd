/**
 * What changed between two snapshots of a store: a row's identity ({@link
 * dfe.fetcher.core.change.RowIdentity}), and the merge of two key-sorted runs into add, remove and
 * change events ({@link dfe.fetcher.core.change.SortedChanges}). No I/O: callers sort and spill.
 */
package dfe.fetcher.core.change;
