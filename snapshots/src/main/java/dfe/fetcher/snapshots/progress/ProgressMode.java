package dfe.fetcher.snapshots.progress;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a command draws its progress line on stderr: {@code auto} (the default) when stderr is a
 * terminal, {@code always}, or {@code never}. Chosen by {@code --progress}, else {@link #VARIABLE}.
 */
public enum ProgressMode {
  AUTO,
  ALWAYS,
  NEVER;

  /** The environment variable that chooses the mode when {@code --progress} is not given. */
  public static final String VARIABLE = "DFE_FETCHER_PROGRESS";

  /**
   * The system property the launcher ({@code ./dfe-fetcher}) sets to {@code true} when its stderr
   * is a terminal ({@code [ -t 2 ]}): Java itself can tell only whether stdin and stdout both are.
   */
  public static final String STDERR_IS_TERMINAL = "dfe.fetcher.stderr.terminal";

  /** The mode a word names ({@code auto}, {@code always}, {@code never}), in any case. */
  public static Optional<ProgressMode> of(String word) {
    for (ProgressMode mode : values()) {
      if (mode.word().equals(word.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(mode);
      }
    }
    return Optional.empty();
  }

  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether progress is drawn, given whether stderr is a terminal. */
  public boolean shows(boolean stderrIsTerminal) {
    return switch (this) {
      case AUTO -> stderrIsTerminal;
      case ALWAYS -> true;
      case NEVER -> false;
    };
  }
}
