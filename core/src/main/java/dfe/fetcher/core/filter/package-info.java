/**
 * The per-connection row filter: a CEL expression ({@code filter:} in the config) compiled when the
 * config is loaded and evaluated on every row the driver is about to send.
 *
 * <p>{@link dfe.fetcher.core.filter.RowFilter} holds the contract: which variables an expression
 * sees, how JSON becomes CEL values, and which {@link dfe.fetcher.core.filter.FilterVerdict} a row
 * gets. Decisions this package makes:
 *
 * <ul>
 *   <li>Equality is decided on values at run time for every operand, not only for row values, so
 *       {@code 1 == 1.0} holds and {@code "1" == 1} is false instead of a load-time refusal.
 *   <li>An integer beyond 64 bits becomes a double, not a string: it stays comparable with numbers.
 *   <li>An expression whose type is known to be something other than bool is refused at load.
 *   <li>A result that is not a bool is reported by its type, never its value, since reasons are
 *       logged and counted. CEL's and Jackson's own messages are passed through as they are.
 * </ul>
 */
package dfe.fetcher.core.filter;
