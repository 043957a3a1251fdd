package dfe.fetcher.row;

import dfe.fetcher.envelope.RawRecord;
import java.util.Objects;
import java.util.Optional;

/**
 * One record as a source read it.
 *
 * @param record the record's JSON bytes as the provider sent them (or as the decoder built them for
 *     CSV)
 * @param fetchedAtMillis epoch milliseconds when the source read it ({@code _timestamp_fetcher})
 * @param mark for incremental units, the position reached once this row is acknowledged; empty for
 *     rows of a dump, whose position is the part's
 * @param origin where the row came from, for error messages: {@code FILE:LINE}, a URL, a table
 */
public record Row(RawRecord record, long fetchedAtMillis, Optional<Mark> mark, String origin) {

  public Row {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(mark, "mark");
    Objects.requireNonNull(origin, "origin");
  }

  /** A row of a dump, which carries no mark of its own. */
  public static Row ofDump(RawRecord record, long fetchedAtMillis, String origin) {
    return new Row(record, fetchedAtMillis, Optional.empty(), origin);
  }
}
