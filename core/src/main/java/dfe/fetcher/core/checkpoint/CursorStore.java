package dfe.fetcher.core.checkpoint;

import dfe.fetcher.core.row.Mark;
import java.util.Optional;

/**
 * The committed position of each unit, under the key {@code <instance>.<connection>.<unit>}.
 *
 * <p>{@link #commit} returns only once the mark is durable: a crash right after it returns keeps
 * the new mark, a crash during it keeps the old one whole. The driver calls it only after the
 * transport acknowledged every record up to the mark. {@link #find} of a cursor that cannot be read
 * reports the problem (once, naming the file) and answers {@link LoadedCursor.Unreadable}, so the
 * driver can tell a lost checkpoint from a first start ({@link
 * dfe.fetcher.core.row.RowSource#readAfterLostCheckpoint}) rather than stop. Implementations are
 * safe for concurrent use by different keys.
 */
public interface CursorStore {

  /** What {@code key}'s cursor holds: a mark, none, or a cursor that cannot be read. */
  LoadedCursor find(String key);

  /** {@code key}'s mark; empty when there is none or it cannot be read. */
  default Optional<Mark> load(String key) {
    return find(key).mark();
  }

  void commit(String key, Mark mark) throws CheckpointException;

  /** A commit that did not become durable; the previous mark stands. */
  final class CheckpointException extends Exception {
    private static final long serialVersionUID = 1L;

    public CheckpointException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
