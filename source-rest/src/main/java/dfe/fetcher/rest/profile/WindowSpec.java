package dfe.fetcher.rest.profile;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * a tail endpoint's {@code window}.
 *
 * @param format how the window's bounds are written into the request
 * @param lookback how far back the first window starts
 * @param step when present, a window longer than this is fetched as several, each committed
 * @param settle how far behind now a window ends, for APIs that index late
 */
public record WindowSpec(
    TimeFormat format, Duration lookback, Optional<Duration> step, Duration settle) {

  public WindowSpec {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(settle, "settle");
  }
}
