package dfe.fetcher.snapshots.apply;

/**
 * The keys a swap added, removed and changed against the rows it replaced.
 *
 * @param added keys in the new rows only
 * @param removed keys in the replaced rows only
 * @param changed keys in both whose records differ
 */
record ChangeCounts(long added, long removed, long changed) {

  /** Of a swap that published no changes, so counted none: every count is -1. */
  static final ChangeCounts NOT_COUNTED = new ChangeCounts(-1, -1, -1);

  /** Whether the changes were counted (published), rather than {@link #NOT_COUNTED}. */
  boolean counted() {
    return added >= 0;
  }
}
