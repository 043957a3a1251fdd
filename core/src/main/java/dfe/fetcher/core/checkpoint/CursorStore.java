package dfe.fetcher.core.checkpoint;

import dfe.fetcher.core.row.Mark;
import java.util.Optional;

/**
 * The committed position of each unit, under the key {@code <instance>.<connection>.<unit>}.
 *
 * <p>{@link #commit} returns only once the mark is durable: a crash right after it returns keeps
 * the new mark, a crash during it keeps the old one whole. The driver calls it only after the
 * transport acknowledged every record up to the mark. {@link #load} of a cursor that cannot be read
 * reports the problem and answers empty, so the unit starts over rather than stopping.
 * Implementations are safe for concurrent use by different keys.
 */
public interface CursorStore {

  Optional<Mark> load(String key);

  void commit(String key, Mark mark) throws CheckpointException;

  /** A commit that did not become durable; the previous mark stands. */
  final class CheckpointException extends Exception {
    private static final long serialVersionUID = 1L;

    public CheckpointException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
