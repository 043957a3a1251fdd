package dfe.fetcher.runtime.cursor;

import dfe.fetcher.core.row.Mark;
import java.time.Instant;
import java.util.Objects;

/**
 * What a unit's checkpoint file holds, as an operator asks about it: nothing, a mark this build
 * reads, or a document it cannot read (which the unit's next tick treats as none and starts over).
 */
public sealed interface StoredCheckpoint {

  /** The mark's kind ({@code file}, {@code keyset}, ...), {@code none} or {@code unreadable}. */
  String kind();

  /** A short description of the mark fit for a terminal or a status page; never a secret. */
  String description();

  /** No checkpoint file: the unit's next tick starts from the beginning. */
  record None() implements StoredCheckpoint {
    @Override
    public String kind() {
      return "none";
    }

    @Override
    public String description() {
      return "none";
    }
  }

  /**
   * A mark this build reads.
   *
   * @param writtenAt when the file was last written (its modification time)
   */
  record Held(Mark mark, Instant writtenAt) implements StoredCheckpoint {
    public Held {
      Objects.requireNonNull(mark, "mark");
      Objects.requireNonNull(writtenAt, "writtenAt");
    }

    @Override
    public String kind() {
      return mark.kind().wireName();
    }

    @Override
    public String description() {
      return MarkDescription.of(mark);
    }
  }

  /**
   * A file this build cannot read.
   *
   * @param problem what is wrong, never quoting the document
   */
  record Unreadable(String problem) implements StoredCheckpoint {
    public Unreadable {
      Objects.requireNonNull(problem, "problem");
    }

    @Override
    public String kind() {
      return "unreadable";
    }

    @Override
    public String description() {
      return problem + " (the next tick starts over)";
    }
  }
}
