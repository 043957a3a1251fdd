package dfe.fetcher.core.checkpoint;

import dfe.fetcher.core.row.Mark;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link CursorStore#find} found under a key: a mark, nothing (the unit never committed), or a
 * cursor that exists but cannot be read. The last is not a first start: the unit had got somewhere,
 * and what it had read may have to land again rather than be passed over.
 */
public sealed interface LoadedCursor {

  /** The mark to read past; empty when there is none or it cannot be read. */
  Optional<Mark> mark();

  /** A mark this build reads. */
  record Held(Mark held) implements LoadedCursor {
    public Held {
      Objects.requireNonNull(held, "held");
    }

    @Override
    public Optional<Mark> mark() {
      return Optional.of(held);
    }
  }

  /** No cursor: the unit has never committed (or its cursor was reset). */
  record None() implements LoadedCursor {
    @Override
    public Optional<Mark> mark() {
      return Optional.empty();
    }
  }

  /**
   * A cursor that is there but cannot be read (a corrupted file, a version this build does not
   * know).
   *
   * @param where the file (or offset store) it was read from, for the log
   * @param problem what is wrong, never quoting the cursor's content
   */
  record Unreadable(String where, String problem) implements LoadedCursor {
    public Unreadable {
      Objects.requireNonNull(where, "where");
      Objects.requireNonNull(problem, "problem");
    }

    @Override
    public Optional<Mark> mark() {
      return Optional.empty();
    }
  }
}
