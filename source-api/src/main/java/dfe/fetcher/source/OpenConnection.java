package dfe.fetcher.source;

import dfe.fetcher.core.row.RowSource;

/**
 * An opened connection: the sources of its units, and what they share until {@link #close}. Sources
 * of one connection are read one unit at a time.
 */
public interface OpenConnection extends AutoCloseable {

  /**
   * The source of the enabled unit named {@code unit}.
   *
   * @throws IllegalArgumentException when the connection has no such enabled unit
   */
  RowSource source(String unit);

  /** Releases what {@code open} acquired; called once, after the last read has returned. */
  @Override
  void close();
}
