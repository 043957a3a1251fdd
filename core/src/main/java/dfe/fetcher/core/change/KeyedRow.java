package dfe.fetcher.core.change;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * One row of a snapshot as a change computation sees it: its key (compact JSON, see {@link
 * RowIdentity}), its seq, the canonical digest of its record, and the record's bytes.
 *
 * <p>{@link #ORDER} sorts by key bytes (unsigned), then seq: the order {@link SortedChanges}
 * expects.
 */
public record KeyedRow(byte[] key, long seq, long digest, byte[] record) {

  public static final Comparator<KeyedRow> ORDER =
      (a, b) -> {
        int byKey = Arrays.compareUnsigned(a.key, b.key);
        return byKey != 0 ? byKey : Long.compare(a.seq, b.seq);
      };

  public KeyedRow {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(record, "record");
  }

  boolean sameKey(KeyedRow other) {
    return Arrays.equals(key, other.key);
  }

  /** Heap the row holds, roughly, for callers that bound what they buffer. */
  public long weight() {
    return 64L + key.length + record.length;
  }
}
