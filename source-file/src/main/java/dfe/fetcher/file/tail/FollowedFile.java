package dfe.fetcher.file.tail;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One file a read follows, and where it stands in it: the offset just past the last line handed to
 * the sink (every record, bad line and blank line before it is passed on).
 */
final class FollowedFile {

  final String identity;
  Path path;
  Fingerprint fingerprint;
  long offset;

  /** Its size when the read looked at it: nothing past it is read this time. */
  long limit;

  /** When it was last written (its modification time, or when this process saw it grow). */
  Instant lastWrite;

  /**
   * Whether it was rotated: its path names another file now (renamed away, deleted), or it is found
   * under another path than its entry's. Such a file is read to its end first.
   */
  boolean rotatedAway;

  /** Whether the unit's globs list it now: such a file is followed however quiet it is. */
  boolean listedNow;

  /** Whether it is known complete: nothing more will be written (a gzip file). */
  boolean complete;

  /** Whether the read reached the limit (or the end) of the file. */
  boolean atEnd;

  FollowedFile(
      String identity,
      Path path,
      Fingerprint fingerprint,
      long offset,
      long limit,
      Instant lastWrite) {
    this.identity = identity;
    this.path = path;
    this.fingerprint = fingerprint;
    this.offset = offset;
    this.limit = limit;
    this.lastWrite = lastWrite;
  }

  String place(long at) {
    return path + ":" + at;
  }
}
