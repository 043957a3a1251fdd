package dfe.fetcher.tick;

/**
 * The filter step of the tick: on a dump it sees the encoded row frame, on an incremental unit the
 * record. Returns whether the row is kept; a dropped row of a dump gives its seq back.
 */
@FunctionalInterface
public interface RowFilterStage {

  RowFilterStage KEEP_ALL = json -> true;

  boolean keep(byte[] json);
}
