/**
 * The constructs of a REST endpoint: what a unit sends beside its own listing. {@code prelude}
 * requests go once per tick before the first page; {@code construct.keyset} runs the listing once
 * per key; a second stage ({@code construct.lookup}, {@code construct.manifest}) turns the
 * listing's rows into further requests whose rows are what lands; {@code construct.queue}
 * acknowledges a pull's messages once their rows landed. Each construct is one class, registered in
 * {@link dfe.fetcher.rest.construct.ConstructType}; {@link dfe.fetcher.rest.construct.UnitReader}
 * composes them for a dump or a window.
 */
package dfe.fetcher.rest.construct;
