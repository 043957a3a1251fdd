package dfe.fetcher.app.health;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what Prometheus' HTTP server reports through {@code java.util.logging} into one fetcher log
 * event each. Left alone, a scrape whose client went away before the answer was written (a
 * Prometheus scrape timeout, {@code curl --max-time}) prints a {@code SEVERE} record with a stack
 * trace of some forty lines on stderr, outside the log format ({@code text} or {@code json}) that
 * stderr holds otherwise. Here it becomes {@code event=metrics_response_failed reason="..."} at
 * WARN on {@code dfe.fetcher.health}: the exporter's message and the cause's class and message, no
 * trace (the cause is the client, not the fetcher).
 */
final class ExporterLog {

  /** The package whose classes log through {@code java.util.logging}. */
  static final String EXPORTER_LOGGER = "io.prometheus.metrics.exporter.httpserver";

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.health");

  // Held here: java.util.logging keeps its loggers only weakly, and a logger collected and made
  // again would have lost the handler below.
  private static final java.util.logging.Logger EXPORTER =
      java.util.logging.Logger.getLogger(EXPORTER_LOGGER);

  static {
    EXPORTER.setUseParentHandlers(false);
    EXPORTER.addHandler(new ToFetcherLog());
  }

  private ExporterLog() {}

  /** Routes the exporter's records from now on; calling it again changes nothing. */
  static void install() {
    // The static initialiser did the work; this names the moment it must have happened by.
  }

  private static final class ToFetcherLog extends Handler {

    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() < Level.WARNING.intValue()) {
        return;
      }
      Throwable cause = record.getThrown();
      String reason =
          record.getMessage()
              + (cause == null
                  ? ""
                  : ": " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
      LOG.warn("event=metrics_response_failed reason=\"{}\"", quoted(reason));
    }

    /** The text as a quoted logfmt value holds it: backslashes, quotes and line breaks escaped. */
    private static String quoted(String text) {
      return text.replace("\\", "\\\\")
          .replace("\"", "\\\"")
          .replace("\n", "\\n")
          .replace("\r", "\\r");
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
