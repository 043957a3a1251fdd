package dfe.fetcher.snapshots.progress;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * How far a command has got at one moment.
 *
 * @param rows rows (frames, records) handled so far
 * @param bytes bytes read so far, when the command can count them
 * @param totalRows the rows it will handle in all, when known
 * @param totalBytes the bytes it will read in all (the files' sizes), when known
 */
public record Reading(
    long rows, OptionalLong bytes, OptionalLong totalRows, OptionalLong totalBytes) {

  /** Rows and bytes, with a byte total when one is known. */
  public static Reading ofBytes(long rows, long bytes, OptionalLong totalBytes) {
    return new Reading(rows, OptionalLong.of(bytes), OptionalLong.empty(), totalBytes);
  }

  /** Rows only, with a row total when one is known. */
  public static Reading ofRows(long rows, OptionalLong totalRows) {
    return new Reading(rows, OptionalLong.empty(), totalRows, OptionalLong.empty());
  }

  /**
   * How much of the total is done: in bytes when the byte total is known, else in rows; empty with
   * no total (or a total of 0).
   */
  public Optional<Share> share() {
    if (bytes.isPresent() && totalBytes.isPresent() && totalBytes.getAsLong() > 0) {
      return Optional.of(new Share(bytes.getAsLong(), totalBytes.getAsLong()));
    }
    if (totalRows.isPresent() && totalRows.getAsLong() > 0) {
      return Optional.of(new Share(rows, totalRows.getAsLong()));
    }
    return Optional.empty();
  }

  /** {@code done} of {@code total}, in one unit (bytes or rows). */
  public record Share(long done, long total) {

    /** From 0 to 1; a total exceeded (a file that grew while read) counts as 1. */
    public double fraction() {
      return Math.min(1.0, (double) done / total);
    }
  }
}
