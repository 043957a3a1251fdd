package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.row.Mark;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The marks whose commit failed, at most one per cursor key: where a unit had got, everything
 * before it acknowledged, that the cursor store could not record (its directory full or read-only).
 * The unit's next tick commits that mark before it reads anything, and reads nothing while the
 * commit still fails: read from the old checkpoint it would land the same again on every tick (a
 * file dump its whole file, as a new snapshot) for as long as the store stays broken.
 *
 * <p>A mark is kept only until a commit of its key works; a later failed commit replaces it, since
 * a later mark of a key covers what an earlier one did. Safe for concurrent use.
 */
final class UncommittedMarks {

  private final Map<String, Mark> marks = new ConcurrentHashMap<>();

  /** {@code mark} of {@code cursorKey} was acknowledged but could not be committed. */
  void failed(String cursorKey, Mark mark) {
    marks.put(cursorKey, mark);
  }

  /** A commit of {@code cursorKey} worked: what it could not record before is recorded now. */
  void committed(String cursorKey) {
    marks.remove(cursorKey);
  }

  /** The mark of {@code cursorKey} still to be committed, if its last commit failed. */
  Optional<Mark> of(String cursorKey) {
    return Optional.ofNullable(marks.get(cursorKey));
  }

  /** The cursor keys whose last commit failed, sorted. */
  List<String> keys() {
    return marks.keySet().stream().sorted().toList();
  }
}
