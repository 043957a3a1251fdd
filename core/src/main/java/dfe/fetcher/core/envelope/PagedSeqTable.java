package dfe.fetcher.core.envelope;

import java.util.Arrays;

/**
 * A value per seq (seqs read as unsigned 32-bit), stored in fixed pages allocated when first
 * written: dense seqs cost the value's size each and a sparse stray seq costs one page, never an
 * array as long as the seq.
 *
 * <p>The first page starts small and doubles up to the page size as higher seqs are put, so a
 * snapshot of ten rows costs about a hundred bytes, not a whole page: {@code snapshots verify} of
 * many small snapshots keeps one table per snapshot.
 */
final class PagedSeqTable {

  private static final int PAGE_BITS = 12;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int OFFSET_MASK = PAGE_SIZE - 1;
  private static final int FIRST_PAGE_START = 16;

  private long[][] digestPages = new long[1][];
  private RawRecord[][] recordPages;

  /** A table of digests; {@code withRecords} also keeps a record per seq. */
  PagedSeqTable(boolean withRecords) {
    this.recordPages = withRecords ? new RawRecord[1][] : null;
  }

  boolean keepsRecords() {
    return recordPages != null;
  }

  void putDigest(int seq, long digest) {
    int page = seq >>> PAGE_BITS;
    int offset = seq & OFFSET_MASK;
    if (page >= digestPages.length) {
      digestPages = Arrays.copyOf(digestPages, grownLength(digestPages.length, page));
    }
    long[] values = digestPages[page];
    if (values == null) {
      values = digestPages[page] = new long[pageLength(page, offset, 0)];
    } else if (offset >= values.length) {
      values = digestPages[page] = Arrays.copyOf(values, pageLength(page, offset, values.length));
    }
    values[offset] = digest;
  }

  /** The digest stored for {@code seq}; only meaningful for a seq that was put. */
  long digest(int seq) {
    return digestPages[seq >>> PAGE_BITS][seq & OFFSET_MASK];
  }

  void putRecord(int seq, RawRecord record) {
    int page = seq >>> PAGE_BITS;
    int offset = seq & OFFSET_MASK;
    if (page >= recordPages.length) {
      recordPages = Arrays.copyOf(recordPages, grownLength(recordPages.length, page));
    }
    RawRecord[] values = recordPages[page];
    if (values == null) {
      values = recordPages[page] = new RawRecord[pageLength(page, offset, 0)];
    } else if (offset >= values.length) {
      values = recordPages[page] = Arrays.copyOf(values, pageLength(page, offset, values.length));
    }
    values[offset] = record;
  }

  RawRecord record(int seq) {
    return recordPages[seq >>> PAGE_BITS][seq & OFFSET_MASK];
  }

  /**
   * The length page {@code page} needs to hold {@code offset}, from {@code current}: pages after
   * the first are whole; the first doubles from {@link #FIRST_PAGE_START}.
   */
  private static int pageLength(int page, int offset, int current) {
    if (page > 0) {
      return PAGE_SIZE;
    }
    int length = Math.max(current, FIRST_PAGE_START);
    while (length <= offset) {
      length *= 2;
    }
    return Math.min(length, PAGE_SIZE);
  }

  private static int grownLength(int length, int page) {
    return (int) Math.min(Math.max((long) length * 2, page + 1L), (1L << (32 - PAGE_BITS)));
  }
}
