package dfe.fetcher.snapshots;

import dfe.fetcher.snapshots.progress.ProgressSetting;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * The standard streams a command reads and writes.
 *
 * @param in standard input, read when a file argument is {@code -}
 * @param out results, for scripts to read
 * @param err diagnostics for people
 * @param progress whether a progress line is drawn on {@code err}
 */
public record Terminal(InputStream in, PrintStream out, PrintStream err, ProgressSetting progress) {

  /** Streams that never show progress: a command run in-process, as tests run it. */
  public Terminal(InputStream in, PrintStream out, PrintStream err) {
    this(in, out, err, ProgressSetting.off());
  }
}
