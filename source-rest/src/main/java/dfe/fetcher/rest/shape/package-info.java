/**
 * How the elements a decoder reads become rows ({@code rows.quoted}, {@code rows.builder}, {@code
 * rows.add_fields}): {@link dfe.fetcher.rest.shape.RowShape} is the bound setting, {@link
 * dfe.fetcher.rest.shape.RowShaper} applies it to one listing, and each {@link
 * dfe.fetcher.rest.shape.RowBuilder} is one class, registered once in {@link
 * dfe.fetcher.rest.shape.RowBuilderType}.
 */
package dfe.fetcher.rest.shape;
