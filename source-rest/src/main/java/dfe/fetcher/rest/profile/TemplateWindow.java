package dfe.fetcher.rest.profile;

import java.time.Instant;
import java.util.Objects;

/**
 * The window one listing of a tail endpoint reads: {@code window.start} and {@code window.end} as
 * timestamps, and the {@code window.format} a timestamp a template yields is written in.
 */
public record TemplateWindow(Instant start, Instant end, TimeFormat format) {

  public TemplateWindow {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(format, "format");
  }
}
