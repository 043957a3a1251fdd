package dfe.fetcher.snapshots.progress;

import java.io.PrintStream;
import java.util.function.Supplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * A progress line on stderr, redrawn in place four times a second from a {@link Reading} the
 * command's counters give, by a thread of its own (the progress-bar library's): the command only
 * counts. When the setting does not show progress nothing is drawn and no thread starts. {@link
 * #close} draws the last reading and ends the line.
 */
public final class TerminalProgress implements AutoCloseable {

  static final int REFRESH_MILLIS = 250;

  private final ProgressBar bar;

  private TerminalProgress(ProgressBar bar) {
    this.bar = bar;
  }

  /**
   * Starts drawing {@code label}'s progress on {@code err} if {@code setting} shows it.
   *
   * @param readings where the counters stand; called from the drawing thread
   */
  public static TerminalProgress start(
      String label, ProgressSetting setting, PrintStream err, Supplier<Reading> readings) {
    if (!setting.shows()) {
      return new TerminalProgress(null);
    }
    ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName(label)
            .setConsumer(new LineInPlace(err))
            .setUpdateIntervalMillis(REFRESH_MILLIS)
            .continuousUpdate()
            .setRenderer(
                (state, width) ->
                    ProgressLine.render(label, readings.get(), state.getTotalElapsed(), width))
            .build();
    return new TerminalProgress(bar);
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }

  /**
   * Draws each line from the first column, clears what an older, longer line left after it, and
   * puts the cursor back on the first column, so that a log line written meanwhile (the service
   * logs on the same stderr) overwrites the progress line instead of running on after it. The width
   * is the terminal's, as the library reads it.
   */
  private static final class LineInPlace extends ConsoleProgressBarConsumer {

    private static final String CLEAR_TO_END = "\033[K";

    private final PrintStream err;

    LineInPlace(PrintStream err) {
      super(err);
      this.err = err;
    }

    @Override
    public void accept(String line) {
      err.print("\r" + line + CLEAR_TO_END + "\r");
      err.flush();
    }

    @Override
    public void close() {
      err.println();
      err.flush();
    }
  }
}
