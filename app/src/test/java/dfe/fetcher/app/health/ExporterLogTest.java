package dfe.fetcher.app.health;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What Prometheus' HTTP server reports through {@code java.util.logging} (a scrape whose client
 * went away, found by the fault campaign polling {@code /metrics} with a time limit) lands as one
 * fetcher event, without the stack trace java.util.logging's console handler would print on stderr
 * outside the log format.
 */
class ExporterLogTest {

  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final Logger health = (Logger) LoggerFactory.getLogger("dfe.fetcher.health");
  private final List<LogRecord> console = new CopyOnWriteArrayList<>();
  private final Handler rootHandler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          console.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final java.util.logging.Logger root = java.util.logging.Logger.getLogger("");

  @BeforeEach
  void capture() {
    events.start();
    health.addAppender(events);
    root.addHandler(rootHandler);
  }

  @AfterEach
  void release() {
    health.detachAppender(events);
    root.removeHandler(rootHandler);
  }

  @Test
  void aFailedScrapeAnswerTheExporterReportsIsOneWarningEventWithoutItsTrace() throws Exception {
    try (HealthServer server =
        HealthServer.start("127.0.0.1", 0, new FetcherMetrics(), () -> true)) {
      java.util.logging.Logger.getLogger(
              "io.prometheus.metrics.exporter.httpserver.HttpExchangeAdapter")
          .log(
              java.util.logging.Level.SEVERE,
              "The Prometheus metrics HTTPServer caught an Exception while trying to send the"
                  + " metrics response.",
              new IOException("Broken pipe"));
    }

    assertThat(console).as("records that reached java.util.logging's console").isEmpty();
    assertThat(events.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getThrowableProxy()).isNull();
              assertThat(event.getFormattedMessage())
                  .isEqualTo(
                      "event=metrics_response_failed reason=\"The Prometheus metrics HTTPServer"
                          + " caught an Exception while trying to send the metrics response.:"
                          + " IOException: Broken pipe\"");
            });
  }

  @Test
  void theExportersNoticesBelowWarningAreDropped() throws Exception {
    try (HealthServer server =
        HealthServer.start("127.0.0.1", 0, new FetcherMetrics(), () -> true)) {
      java.util.logging.Logger.getLogger(ExporterLog.EXPORTER_LOGGER + ".HTTPServer")
          .info("listening");
    }

    assertThat(console).isEmpty();
    assertThat(events.list).isEmpty();
  }
}
