package dfe.fetcher.app.health;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.runtime.config.MetricsConfig;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.service.UnitStatus;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /metrics} (Prometheus text), {@code /livez} (200 while the process runs), {@code
 * /readyz} (200 while the service is ready, 503 otherwise) and {@code /status} (JSON: each unit's
 * last tick, outcome, last success, next tick and checkpoint, see {@link StatusDocument}) on {@code
 * metrics.address}. Port 0 binds any free port; {@link #port()} tells which.
 */
public final class HealthServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.health");

  private final HTTPServer server;

  private HealthServer(HTTPServer server) {
    this.server = server;
  }

  /**
   * Serves {@code service}'s metrics and health on {@code settings}' address.
   *
   * @throws IOException when the address cannot be listened on (the message names it)
   */
  public static HealthServer serve(FetcherService service, MetricsConfig settings)
      throws IOException {
    // The process's own metrics beside the fetcher's: memory, GC, threads, CPU, descriptors.
    JvmMetrics.builder().register(service.metrics().registry());
    HealthServer health;
    try {
      health =
          start(
              settings.host(),
              settings.port(),
              service.metrics(),
              service::isReady,
              service::status);
    } catch (IOException e) {
      throw new IOException(
          "metrics.address " + settings.address() + ": cannot listen: " + e.getMessage(), e);
    }
    LOG.info(
        "event=metrics_listening address={}:{} paths=/metrics,/livez,/readyz,/status",
        settings.host(),
        health.port());
    return health;
  }

  public static HealthServer start(
      String host, int port, FetcherMetrics metrics, BooleanSupplier ready) throws IOException {
    return start(host, port, metrics, ready, List::of);
  }

  /** Serves {@code status}'s units on {@code /status} beside the metrics and health. */
  public static HealthServer start(
      String host,
      int port,
      FetcherMetrics metrics,
      BooleanSupplier ready,
      Supplier<List<UnitStatus>> status)
      throws IOException {
    ExporterLog.install();
    HTTPServer server =
        HTTPServer.builder()
            .hostname(host)
            .port(port)
            .registry(metrics.registry())
            .defaultHandler(exchange -> respond(exchange, ready, status))
            .buildAndStart();
    return new HealthServer(server);
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.close();
  }

  private static void respond(
      HttpExchange exchange, BooleanSupplier ready, Supplier<List<UnitStatus>> status)
      throws IOException {
    String path = exchange.getRequestURI().getPath();
    switch (path) {
      case "/livez" -> write(exchange, 200, "ok\n");
      case "/readyz" -> {
        if (ready.getAsBoolean()) {
          write(exchange, 200, "ready\n");
        } else {
          write(
              exchange,
              503,
              "not ready: the output is unreachable or a checkpoint cannot be committed\n");
        }
      }
      case "/status" ->
          write(
              exchange,
              200,
              "application/json",
              StatusDocument.render(status.get(), Instant.now()));
      default -> write(exchange, 404, "not found; try /metrics, /livez, /readyz or /status\n");
    }
  }

  private static void write(HttpExchange exchange, int status, String body) throws IOException {
    write(exchange, status, "text/plain", body);
  }

  private static void write(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
