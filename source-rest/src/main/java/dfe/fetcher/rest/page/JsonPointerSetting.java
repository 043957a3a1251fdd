package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonPointer;
import dfe.fetcher.source.config.Section;
import java.util.Optional;

/** A setting that is a JSON pointer into a page's body ({@code rows.at}, {@code error_at}, ...). */
public final class JsonPointerSetting {

  private JsonPointerSetting() {}

  /** The pointer at {@code key}; one that does not compile is reported and read as absent. */
  public static Optional<String> read(Section section, String key) {
    Optional<String> pointer = section.string(key);
    if (pointer.isEmpty()) {
      return pointer;
    }
    try {
      JsonPointer.compile(pointer.get());
      return pointer;
    } catch (IllegalArgumentException e) {
      section.report(
          key, "is not a JSON pointer (e.g. /items or /data/0/error): " + e.getMessage());
      return Optional.empty();
    }
  }
}
