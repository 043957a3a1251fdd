package dfe.fetcher.rest.construct;

import dfe.fetcher.core.row.WindowMark;

/**
 * Where a manifest reports each item whose rows were all handed on, for a unit whose items carry a
 * checkpoint ({@code key} and {@code position}): a tail unit commits {@code WindowMark(start,
 * item)} for it once those rows are acknowledged.
 */
@FunctionalInterface
public interface ItemProgress {

  ItemProgress NONE = item -> {};

  void landed(WindowMark.Item item) throws InterruptedException;
}
