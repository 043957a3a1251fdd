package dfe.fetcher.app.health;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.runtime.config.MetricsConfig;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.FetcherService;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /metrics} (Prometheus text), {@code /livez} (200 while the process runs) and {@code
 * /readyz} (200 while the transport is reachable, 503 otherwise) on {@code metrics.address}. Port 0
 * binds any free port; {@link #port()} tells which.
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
    HealthServer health;
    try {
      health = start(settings.host(), settings.port(), service.metrics(), service::isReady);
    } catch (IOException e) {
      throw new IOException(
          "metrics.address " + settings.address() + ": cannot listen: " + e.getMessage(), e);
    }
    LOG.info(
        "event=metrics_listening address={}:{} paths=/metrics,/livez,/readyz",
        settings.host(),
        health.port());
    return health;
  }

  public static HealthServer start(
      String host, int port, FetcherMetrics metrics, BooleanSupplier ready) throws IOException {
    HTTPServer server =
        HTTPServer.builder()
            .hostname(host)
            .port(port)
            .registry(metrics.registry())
            .defaultHandler(exchange -> respond(exchange, ready))
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

  private static void respond(HttpExchange exchange, BooleanSupplier ready) throws IOException {
    String path = exchange.getRequestURI().getPath();
    switch (path) {
      case "/livez" -> write(exchange, 200, "ok\n");
      case "/readyz" -> {
        if (ready.getAsBoolean()) {
          write(exchange, 200, "ready\n");
        } else {
          write(exchange, 503, "not ready: the transport is unreachable\n");
        }
      }
      default -> write(exchange, 404, "not found; try /metrics, /livez or /readyz\n");
    }
  }

  private static void write(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
