package dfe.fetcher.core.row;

import java.time.Instant;
import java.util.Objects;

/**
 * A REST tail unit's position: the end of the last window landed. The next window starts there.
 *
 * @param end the window's end, at the precision the source formats it with
 */
public record WindowMark(Instant end) implements Mark {

  public WindowMark {
    Objects.requireNonNull(end, "end");
  }

  @Override
  public Kind kind() {
    return Kind.WINDOW;
  }
}
