package dfe.fetcher.rest.profile;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A tail endpoint's {@code window}.
 *
 * @param format how the window's bounds are written into the request
 * @param lookback how far back the first window starts
 * @param step when present, a window longer than this is fetched as several, each committed
 * @param settle how far behind now a window ends, for APIs that index late
 * @param positionAt a JSON pointer to the time a record carries, which the API orders the window's
 *     listing by (ascending): a window cut short at {@code max_pages} commits its last record's
 *     time and the next tick goes on from there ({@code window.position_at})
 * @param cursorAt a JSON pointer to the time a record carries, which the unit keeps its checkpoint
 *     by instead of the window's end ({@code window.cursor_at}): the greatest time landed, each
 *     tick asking from there less {@code cursorLookback}
 * @param cursorLookback how far before the greatest time landed each tick asks again, for records
 *     an API indexes late; those landed already are not landed again
 */
public record WindowSpec(
    TimeFormat format,
    Duration lookback,
    Optional<Duration> step,
    Duration settle,
    Optional<String> positionAt,
    Optional<String> cursorAt,
    Duration cursorLookback) {

  public WindowSpec {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(settle, "settle");
    Objects.requireNonNull(positionAt, "positionAt");
    Objects.requireNonNull(cursorAt, "cursorAt");
    Objects.requireNonNull(cursorLookback, "cursorLookback");
  }

  /**
   * Where a tick at {@code now} ends its windows: {@code settle} behind now, in the format's unit.
   */
  public Instant endAt(Instant now) {
    return format.truncate(now.minus(settle));
  }

  /** Where a unit with no checkpoint starts at {@code now}: {@code lookback} behind it. */
  public Instant firstStartAt(Instant now) {
    return format.truncate(now.minus(lookback));
  }
}
