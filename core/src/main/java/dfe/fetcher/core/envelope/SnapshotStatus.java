package dfe.fetcher.core.envelope;

import java.util.Locale;

/** What a consumer can conclude about one snapshot from the frames it has seen. */
public enum SnapshotStatus {
  /** An end arrived, every seq in {@code 0..row_count} is present, and nothing conflicts. */
  COMPLETE,
  /** An end arrived and some seq in {@code 0..row_count} is missing. */
  TRUNCATED,
  /** No end has arrived (yet): the dump is in flight, or it aborted. */
  OPEN,
  /**
   * Frames disagree: one seq with two different records, a seq both a row and a stub, a seq at or
   * beyond {@code row_count}, or ends that disagree. Such a snapshot can never be trusted.
   */
  CONFLICT;

  /** The lowercase name reports use. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
