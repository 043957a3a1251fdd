import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Executors;

/**
 * The REST API the memory benchmark (benchmarks/scripts/memory-scale.sh) dumps: RECORDS records as
 * NDJSON pages of PAGE_SIZE, made on the fly from the page number, so ten million records need no
 * disk and no memory beyond one page.
 *
 * <p>{@code GET /pages/N} (N from 1) answers records {@code (N-1)*PAGE_SIZE} up to RECORDS, one
 * JSON object a line, {@code {"id":"host-i","alive":...,"n":i,...}}, each page but the last with
 * {@code Link: </pages/N+1>; rel="next"}. A page past the last is a 404. Responses have a length, so
 * connections are kept alive, and are sent without Nagle's delay (otherwise a page's last short
 * segment waits for the client's delayed ACK).
 *
 * <p>Usage: java NdjsonPageServer.java DIR RECORDS PAGE_SIZE. Binds 127.0.0.1 on a free port and
 * writes it to DIR/port once it listens; runs until killed.
 */
public class NdjsonPageServer {

  private final long records;
  private final int pageSize;
  private final long pages;

  NdjsonPageServer(long records, int pageSize) {
    this.records = records;
    this.pageSize = pageSize;
    this.pages = (records + pageSize - 1) / pageSize;
  }

  public static void main(String[] args) throws Exception {
    // Read by the JDK's server when it is created: TCP_NODELAY on every accepted connection.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    Path directory = Path.of(args[0]);
    NdjsonPageServer api = new NdjsonPageServer(Long.parseLong(args[1]), Integer.parseInt(args[2]));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext("/pages/", api::answer);
    server.start();
    Path temporary = directory.resolve("port.tmp");
    Files.writeString(temporary, server.getAddress().getPort() + "\n");
    Files.move(temporary, directory.resolve("port"), StandardCopyOption.ATOMIC_MOVE);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      long page = pageNumber(exchange.getRequestURI().getPath());
      if (page < 1 || page > pages) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body = page(page).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
      if (page < pages) {
        exchange.getResponseHeaders().add("Link", "</pages/" + (page + 1) + ">; rel=\"next\"");
      }
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** The number after {@code /pages/}, or 0 when there is none. */
  private static long pageNumber(String path) {
    try {
      return Long.parseLong(path.substring("/pages/".length()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private String page(long page) {
    long from = (page - 1) * pageSize;
    long to = Math.min(records, from + pageSize);
    StringBuilder lines = new StringBuilder(pageSize * 160);
    for (long i = from; i < to; i++) {
      lines
          .append("{\"id\":\"host-")
          .append(i)
          .append("\",\"alive\":")
          .append(i % 10 != 0)
          .append(",\"n\":")
          .append(i)
          .append(",\"rack\":\"r")
          .append(i % 64)
          .append("\",\"tags\":[\"a\",\"b\"],\"note\":\"generated row for the memory benchmark\"}\n");
    }
    return lines.toString();
  }
}
