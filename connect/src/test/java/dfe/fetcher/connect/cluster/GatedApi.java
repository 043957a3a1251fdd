package dfe.fetcher.connect.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP API on 127.0.0.1 whose dump endpoints page with {@code Link} headers: {@code /assets}
 * serves ids 1 and 2, then holds its second page (id 3) until {@link #open} (a dump caught half
 * way); {@code /flaky} fails its second page with a 500 the first time it is asked, once {@link
 * #failFlaky} was called (so that the first page's frames are on the topic by then), then serves
 * it.
 */
public final class GatedApi implements AutoCloseable {

  private final HttpServer server;
  private final CountDownLatch gate = new CountDownLatch(1);
  private final AtomicInteger heldRequests = new AtomicInteger();
  private final AtomicInteger flakyFailures = new AtomicInteger();
  private final CountDownLatch flakyGate = new CountDownLatch(1);

  public GatedApi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Second pages of {@code /assets} asked for so far (each held until {@link #open}). */
  public int heldRequests() {
    return heldRequests.get();
  }

  /** Lets every held and later second page through. */
  public void open() {
    gate.countDown();
  }

  /** Lets {@code /flaky} answer its held second page with the 500. */
  public void failFlaky() {
    flakyGate.countDown();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    boolean secondPage = exchange.getRequestURI().getRawQuery() != null;
    try {
      if (!secondPage) {
        exchange.getResponseHeaders().add("Link", "<" + path + "?page=2>; rel=\"next\"");
        respond(exchange, 200, "[{\"id\":1},{\"id\":2}]");
      } else if (path.equals("/assets")) {
        heldRequests.incrementAndGet();
        if (!gate.await(120, TimeUnit.SECONDS)) {
          respond(exchange, 503, "{}");
          return;
        }
        respond(exchange, 200, "[{\"id\":3}]");
      } else if (flakyFailures.getAndIncrement() == 0) {
        if (!flakyGate.await(120, TimeUnit.SECONDS)) {
          respond(exchange, 503, "{}");
          return;
        }
        respond(exchange, 500, "{\"error\":\"try later\"}");
      } else {
        respond(exchange, 200, "[{\"id\":3}]");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // The client went away (a cancelled request): nothing to answer.
    } finally {
      exchange.close();
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    open();
    server.stop(0);
  }
}
