package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.page.JsonPointerSetting;
import dfe.fetcher.source.config.Section;
import java.time.Duration;
import java.util.Optional;

/**
 * Binds a tail endpoint's {@code window}, with the unit's {@code lookback} and {@code settle} over
 * the profile's.
 */
final class WindowBinder {

  private WindowBinder() {}

  static WindowSpec bind(Section window, Section override) {
    TimeFormat format = TimeFormat.RFC3339_SECS;
    if (window.require("format")) {
      String name = window.string("format").orElse("rfc3339_secs");
      Optional<TimeFormat> named = TimeFormat.named(name);
      if (named.isPresent()) {
        format = named.get();
      } else {
        window.report(
            "format",
            "unknown format '" + name + "'; one of " + String.join(", ", TimeFormat.names()));
      }
    }
    Duration lookback =
        duration(override, "lookback").or(() -> duration(window, "lookback")).orElse(null);
    if (lookback == null) {
      if (override.node("lookback").isEmpty()) {
        window.require("lookback");
      }
      lookback = Duration.ofHours(1);
    }
    Optional<Duration> step = duration(window, "step");
    Duration settle =
        duration(override, "settle").or(() -> duration(window, "settle")).orElse(Duration.ZERO);
    if (lookback.isZero()) {
      window.report("lookback", "must be above 0");
    }
    if (!settle.isZero() && settle.compareTo(lookback) >= 0) {
      Section setter = override.node("settle").isPresent() ? override : window;
      setter.report(
          "settle",
          DurationText.format(settle)
              + " is not shorter than lookback "
              + DurationText.format(lookback)
              + ", so the first window would be empty and nothing ever read");
    }
    if (step.isPresent() && step.get().isZero()) {
      window.report("step", "must be above 0");
    }
    Optional<String> positionAt = JsonPointerSetting.read(window, "position_at");
    Optional<String> cursorAt = JsonPointerSetting.read(window, "cursor_at");
    Duration cursorLookback = duration(window, "cursor_lookback").orElse(Duration.ZERO);
    if (cursorAt.isPresent() && positionAt.isPresent()) {
      window.report(
          "cursor_at",
          "does not combine with position_at: a record-field cursor already goes on from the"
              + " greatest time landed; leave position_at out");
    }
    if (cursorAt.isPresent() && step.isPresent()) {
      window.report(
          "cursor_at",
          "does not combine with step: a record-field cursor reads from its greatest time to now"
              + " in one listing; leave step out");
    }
    if (cursorAt.isEmpty() && window.node("cursor_lookback").isPresent()) {
      window.report("cursor_lookback", "is read only with cursor_at");
    }
    return new WindowSpec(format, lookback, step, settle, positionAt, cursorAt, cursorLookback);
  }

  private static Optional<Duration> duration(Section section, String key) {
    Optional<String> text = section.string(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Optional<Duration> duration = DurationText.parse(text.get());
    if (duration.isEmpty()) {
      section.report(key, "must be a duration: a number and ms, s, m, h or d, e.g. 15m or 1h");
    }
    return duration;
  }
}
