import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The REST API the fault campaign (benchmarks/scripts/fault-campaign.sh) pages while it kills the
 * fetcher: a fixed listing for a dump and a stream of timed events for an incremental unit, both a
 * pure function of the page asked for and of the clock, so what the fetcher should have landed is
 * known exactly afterwards.
 *
 * <ul>
 *   <li>{@code GET /assets[?page=N]}: ITEMS items {@code {"id":i,"name":"asset-i"}} in pages of
 *       PAGE_SIZE, the next page in a {@code Link} header, each answered after PAGE_DELAY_MS so a
 *       dump lasts long enough to be cut. The listing is written to DIR/assets.ndjson at start.
 *   <li>{@code GET /events?since=T&until=T}: the events whose time lies in {@code [since, until)}
 *       (RFC 3339), one every EVENT_MS from the server's start, {@code {"id":i,"at":"..."}}, as a
 *       JSON array. Events are only made until {@code POST /stop}.
 *   <li>{@code POST /stop}: no event is made after now; the ids of every event made are written to
 *       DIR/events.expected (one a line), then the answer is sent.
 * </ul>
 *
 * <p>Usage: java CampaignRestServer.java DIR ITEMS PAGE_SIZE PAGE_DELAY_MS EVENT_MS. Binds
 * 127.0.0.1 on a free port and writes it to DIR/port once it listens; runs until killed.
 */
public class CampaignRestServer {

  private final Path directory;
  private final int items;
  private final int pageSize;
  private final long pageDelayMillis;
  private final long eventMillis;
  private final long startMillis = System.currentTimeMillis();
  private volatile long stopMillis = Long.MAX_VALUE;

  CampaignRestServer(
      Path directory, int items, int pageSize, long pageDelayMillis, long eventMillis) {
    this.directory = directory;
    this.items = items;
    this.pageSize = pageSize;
    this.pageDelayMillis = pageDelayMillis;
    this.eventMillis = eventMillis;
  }

  public static void main(String[] args) throws Exception {
    CampaignRestServer api =
        new CampaignRestServer(
            Path.of(args[0]),
            Integer.parseInt(args[1]),
            Integer.parseInt(args[2]),
            Long.parseLong(args[3]),
            Long.parseLong(args[4]));
    api.writeListing();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
    server.createContext("/assets", exchange -> api.answer(exchange, api::assets));
    server.createContext("/events", exchange -> api.answer(exchange, api::events));
    server.createContext("/stop", exchange -> api.answer(exchange, api::stop));
    server.start();
    api.writeAtomically("port", server.getAddress().getPort() + "\n");
  }

  private interface Page {
    String body(HttpExchange exchange, Map<String, String> query) throws Exception;
  }

  private void answer(HttpExchange exchange, Page page) throws IOException {
    try {
      String body = page.body(exchange, query(exchange.getRequestURI().getRawQuery()));
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (Exception e) {
      byte[] bytes = ("{\"error\":\"" + e.getClass().getSimpleName() + "\"}").getBytes();
      exchange.sendResponseHeaders(400, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } finally {
      exchange.close();
    }
  }

  private String assets(HttpExchange exchange, Map<String, String> query) throws Exception {
    int page = Integer.parseInt(query.getOrDefault("page", "0"));
    TimeUnit.MILLISECONDS.sleep(pageDelayMillis); // a page that takes time, so a kill can cut
    int from = page * pageSize;
    int to = Math.min(items, from + pageSize);
    if (to < items) {
      exchange.getResponseHeaders().add("Link", "</assets?page=" + (page + 1) + ">; rel=\"next\"");
    }
    List<String> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add(asset(i));
    }
    return "[" + String.join(",", rows) + "]";
  }

  private String events(HttpExchange exchange, Map<String, String> query) {
    long since = Instant.parse(query.get("since")).toEpochMilli();
    long until = Instant.parse(query.get("until")).toEpochMilli();
    List<String> rows = new ArrayList<>();
    long made = madeBefore(Math.min(until, System.currentTimeMillis() + 1));
    for (long i = Math.max(0, firstAtOrAfter(since)); i < made; i++) {
      rows.add("{\"id\":" + i + ",\"at\":\"" + Instant.ofEpochMilli(eventAt(i)) + "\"}");
    }
    return "[" + String.join(",", rows) + "]";
  }

  private synchronized String stop(HttpExchange exchange, Map<String, String> query)
      throws IOException {
    if (stopMillis == Long.MAX_VALUE) {
      stopMillis = System.currentTimeMillis();
    }
    long made = madeBefore(stopMillis + 1);
    StringBuilder ids = new StringBuilder();
    for (long i = 0; i < made; i++) {
      ids.append(i).append('\n');
    }
    writeAtomically("events.expected", ids.toString());
    return "{\"events\":" + made + "}";
  }

  /** The number of events whose time is before {@code millis} (and not after the stop). */
  private long madeBefore(long millis) {
    // Before the stop, stopMillis + 1 would overflow to Long.MIN_VALUE: no event at all.
    long stop = stopMillis;
    long bound = stop == Long.MAX_VALUE ? millis : Math.min(millis, stop + 1);
    return bound <= startMillis ? 0 : (bound - startMillis + eventMillis - 1) / eventMillis;
  }

  private long firstAtOrAfter(long millis) {
    return millis <= startMillis ? 0 : (millis - startMillis + eventMillis - 1) / eventMillis;
  }

  private long eventAt(long i) {
    return startMillis + i * eventMillis;
  }

  private static String asset(int i) {
    return "{\"id\":" + i + ",\"name\":\"asset-" + i + "\"}";
  }

  private void writeListing() throws IOException {
    StringBuilder listing = new StringBuilder();
    for (int i = 0; i < items; i++) {
      listing.append(asset(i)).append('\n');
    }
    writeAtomically("assets.ndjson", listing.toString());
  }

  private void writeAtomically(String name, String content) throws IOException {
    Path temporary = directory.resolve(name + ".tmp");
    Files.writeString(temporary, content);
    Files.move(temporary, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int equals = pair.indexOf('=');
        if (equals > 0) {
          query.put(
              pair.substring(0, equals),
              URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return query;
  }
}
