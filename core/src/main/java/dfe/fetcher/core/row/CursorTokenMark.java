package dfe.fetcher.core.row;

import java.util.Objects;

/**
 * An API's own resume token (a change-feed cursor, a {@code next} link): opaque to the fetcher,
 * handed back to the API verbatim.
 *
 * @param token the token as the API sent it; never empty
 */
public record CursorTokenMark(String token) implements Mark {

  public CursorTokenMark {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty()) {
      throw new IllegalArgumentException("a cursor token mark needs a token");
    }
  }

  @Override
  public Kind kind() {
    return Kind.CURSOR_TOKEN;
  }

  /** The token may be long and is the API's business: only its length is printed. */
  @Override
  public String toString() {
    return "CursorTokenMark[" + token.length() + " chars]";
  }
}
