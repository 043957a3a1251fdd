package dfe.fetcher.snapshots.progress;

import java.util.Map;
import java.util.Properties;

/**
 * The progress choice of one command line: the mode ({@code --progress}, else {@link
 * ProgressMode#VARIABLE}, else {@code auto}) and whether stderr is a terminal (as the launcher
 * said). The mode is set as the command line is parsed, before the command runs, so it is read only
 * after that.
 */
public final class ProgressSetting {

  private final boolean stderrIsTerminal;
  private volatile ProgressMode mode;

  public ProgressSetting(ProgressMode mode, boolean stderrIsTerminal) {
    this.mode = mode;
    this.stderrIsTerminal = stderrIsTerminal;
  }

  /** No progress, whatever stderr is: what a command run in-process (a test) gets by default. */
  public static ProgressSetting off() {
    return new ProgressSetting(ProgressMode.NEVER, false);
  }

  /**
   * The setting of a process: {@code auto} unless {@link ProgressMode#VARIABLE} names a mode, and
   * stderr a terminal when the launcher set {@link ProgressMode#STDERR_IS_TERMINAL} to {@code
   * true}.
   *
   * @throws IllegalArgumentException when the variable names no mode, saying what it holds
   */
  public static ProgressSetting of(Map<String, String> environment, Properties properties) {
    String variable = environment.get(ProgressMode.VARIABLE);
    ProgressMode mode = ProgressMode.AUTO;
    if (variable != null && !variable.isBlank()) {
      mode =
          ProgressMode.of(variable)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          ProgressMode.VARIABLE
                              + "="
                              + variable
                              + ": not a progress mode; use auto, always or never"));
    }
    boolean terminal =
        Boolean.parseBoolean(properties.getProperty(ProgressMode.STDERR_IS_TERMINAL, "false"));
    return new ProgressSetting(mode, terminal);
  }

  /** {@code --progress}: wins over the variable. */
  public void choose(ProgressMode chosen) {
    this.mode = chosen;
  }

  public ProgressMode mode() {
    return mode;
  }

  /** Whether a command draws its progress line now. */
  public boolean shows() {
    return mode.shows(stderrIsTerminal);
  }
}
