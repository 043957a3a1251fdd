package dfe.fetcher.core.row;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A REST tail unit's position: the end of the last window landed. The next window starts there.
 *
 * <p>A unit whose items each carry a checkpoint (a REST manifest's {@code key} and {@code
 * position}) also says how far into the next window it got: {@code after} is the last item landed
 * in the window starting at {@code end}, so a tick that failed half way resumes after it instead of
 * at the window's first item.
 *
 * @param end the window's end, at the precision the source formats it with
 * @param after in the window starting at {@code end}, the last item landed; empty when none is
 */
public record WindowMark(Instant end, Optional<Item> after) implements Mark {

  /**
   * An item of a window, as its source orders them: by {@code position} (the time or number the
   * listing is ordered by, as text), then by {@code key} (its identity).
   */
  public record Item(String key, String position) {
    public Item {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(position, "position");
    }
  }

  public WindowMark {
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(after, "after");
  }

  /** The end of the last window landed, no item of the next one. */
  public WindowMark(Instant end) {
    this(end, Optional.empty());
  }

  @Override
  public Kind kind() {
    return Kind.WINDOW;
  }
}
