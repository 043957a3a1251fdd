package dfe.fetcher.file.tail;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tail unit's {@code multiline:} settings: how consecutive lines join into one event (a stack
 * trace under its log line). An event's lines are joined with {@code \n}; it ends when a line
 * starts the next event, or, at the end of the file, once the file has not been written to for
 * {@code timeout} (the last event of a quiet file is flushed then, not held forever).
 *
 * @param mode whether {@code pattern} marks a line that starts an event or one that continues it
 * @param pattern a Java regular expression, found anywhere in the line ({@code ^} anchors it)
 * @param timeout how long a file must be quiet before the event at its end is complete
 */
public record MultilineSpec(Mode mode, String pattern, Duration timeout) {

  /** What the pattern marks. */
  public enum Mode {
    /** A line the pattern finds starts an event; every other line continues the one before. */
    START("start"),
    /** A line the pattern finds continues the event before; every other line starts one. */
    CONTINUATION("continuation");

    private final String configName;

    Mode(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  public MultilineSpec {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(timeout, "timeout");
    Pattern.compile(pattern); // refuse a pattern that does not compile here, not at read time
  }

  /** Whether {@code line} (decoded as UTF-8) starts a new event. */
  boolean startsEvent(Pattern compiled, CharSequence line) {
    boolean found = compiled.matcher(line).find();
    return switch (mode) {
      case START -> found;
      case CONTINUATION -> !found;
    };
  }
}
