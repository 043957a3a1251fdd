package dfe.fetcher.core.change;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * The changes between two snapshots, each given as its rows sorted by {@link KeyedRow#ORDER}. A
 * merge of the two sequences, so it holds two rows at a time whatever the snapshots weigh.
 *
 * <p>Rows repeated with the same key and seq (at-least-once delivery) count once; the same key at
 * two seqs of one snapshot is a {@link DuplicateKeyException}. Records are compared by their
 * canonical digest, so key order, whitespace and number spelling are not changes.
 */
public final class SortedChanges {

  /** How many keys of each kind were emitted. */
  public record Counts(long added, long removed, long changed, long unchanged) {}

  private SortedChanges() {}

  /** Emits to {@code sink}, in key order, every key added, removed or changed. */
  public static Counts between(
      Iterator<KeyedRow> before, Iterator<KeyedRow> after, Consumer<ChangeEvent> sink) {
    Iterator<KeyedRow> from = distinct(before, "earlier");
    Iterator<KeyedRow> to = distinct(after, "later");
    long added = 0;
    long removed = 0;
    long changed = 0;
    long unchanged = 0;
    KeyedRow a = from.hasNext() ? from.next() : null;
    KeyedRow b = to.hasNext() ? to.next() : null;
    while (a != null || b != null) {
      int order = a == null ? 1 : b == null ? -1 : Arrays.compareUnsigned(a.key(), b.key());
      if (order < 0) {
        sink.accept(ChangeEvent.removed(a.key(), a.record()));
        removed++;
        a = from.hasNext() ? from.next() : null;
      } else if (order > 0) {
        sink.accept(ChangeEvent.added(b.key(), b.record()));
        added++;
        b = to.hasNext() ? to.next() : null;
      } else {
        if (a.digest() != b.digest()) {
          sink.accept(ChangeEvent.changed(a.key(), a.record(), b.record()));
          changed++;
        } else {
          unchanged++;
        }
        a = from.hasNext() ? from.next() : null;
        b = to.hasNext() ? to.next() : null;
      }
    }
    return new Counts(added, removed, changed, unchanged);
  }

  /** {@code sorted} with repeats of one (key, seq) collapsed; a key at two seqs throws. */
  static Iterator<KeyedRow> distinct(Iterator<KeyedRow> sorted, String side) {
    return new Iterator<>() {
      private KeyedRow pending = sorted.hasNext() ? sorted.next() : null;

      @Override
      public boolean hasNext() {
        return pending != null;
      }

      @Override
      public KeyedRow next() {
        if (pending == null) {
          throw new NoSuchElementException();
        }
        KeyedRow current = pending;
        pending = null;
        while (sorted.hasNext()) {
          KeyedRow following = sorted.next();
          if (!following.sameKey(current)) {
            pending = following;
            break;
          }
          if (following.seq() != current.seq()) {
            throw new DuplicateKeyException(side, current.key(), current.seq(), following.seq());
          }
        }
        return current;
      }
    };
  }
}
