package dfe.fetcher.envelope;

import java.util.Arrays;

/**
 * A value per seq (seqs read as unsigned 32-bit), stored in fixed pages allocated when first
 * written: dense seqs cost the value's size each and a sparse stray seq costs one page, never an
 * array as long as the seq.
 */
final class PagedSeqTable {

  private static final int PAGE_BITS = 12;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int OFFSET_MASK = PAGE_SIZE - 1;

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
    if (page >= digestPages.length) {
      digestPages = Arrays.copyOf(digestPages, grownLength(digestPages.length, page));
    }
    long[] values = digestPages[page];
    if (values == null) {
      values = digestPages[page] = new long[PAGE_SIZE];
    }
    values[seq & OFFSET_MASK] = digest;
  }

  /** The digest stored for {@code seq}; only meaningful for a seq that was put. */
  long digest(int seq) {
    return digestPages[seq >>> PAGE_BITS][seq & OFFSET_MASK];
  }

  void putRecord(int seq, RawRecord record) {
    int page = seq >>> PAGE_BITS;
    if (page >= recordPages.length) {
      recordPages = Arrays.copyOf(recordPages, grownLength(recordPages.length, page));
    }
    RawRecord[] values = recordPages[page];
    if (values == null) {
      values = recordPages[page] = new RawRecord[PAGE_SIZE];
    }
    values[seq & OFFSET_MASK] = record;
  }

  RawRecord record(int seq) {
    return recordPages[seq >>> PAGE_BITS][seq & OFFSET_MASK];
  }

  private static int grownLength(int length, int page) {
    return (int) Math.min(Math.max((long) length * 2, page + 1L), (1L << (32 - PAGE_BITS)));
  }
}
