import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

/**
 * The REST API the fault campaign (benchmarks/scripts/fault-campaign.sh) pages while it kills the
 * fetcher or breaks its answers: a fixed listing for dumps and a stream of timed events for an
 * incremental unit, both a pure function of the page asked for and of the clock, so what the
 * fetcher should have landed is known exactly afterwards. A plain HTTP/1.1 server on sockets (one
 * request a connection, {@code Connection: close}), so a fault can cut a body where it likes: reset
 * the connection, end a chunked body without its last chunk, stall it.
 *
 * <ul>
 *   <li>{@code GET /assets[?page=N]}: ITEMS items {@code {"id":i,"name":"asset-i"}} as a JSON array
 *       in pages of PAGE_SIZE, the next page in a {@code Link} header, each answered after
 *       PAGE_DELAY_MS so a dump lasts long enough to be cut. The listing is written to
 *       DIR/assets.ndjson at start.
 *   <li>{@code GET /items[?page=N]}: the same listing as NDJSON pages; its {@code Link} echoes the
 *       request's {@code api_key}, as some APIs do, so an error naming the next page has a key to
 *       mask.
 *   <li>{@code GET /events?since=T&until=T[&limit=L&offset=O]}: the events whose time lies in
 *       {@code [since, until)} (RFC 3339), one every EVENT_MS from the server's start, {@code
 *       {"id":i,"at":"..."}}, as a JSON array; with {@code limit}, L of them from O, the next page
 *       in a {@code Link} header. Events are only made until {@code POST /stop}.
 *   <li>{@code GET /bad/K?page=N}: a listing of two pages whose second is bad (K: {@code
 *       not-json}, {@code shape}, {@code 500}, {@code content-type}, {@code gzip-cut}, {@code
 *       gzip-trailer}, {@code huge}), for the bad-input family.
 *   <li>{@code POST /stop}: no event is made after now; the ids of every event made are written to
 *       DIR/events.expected (one a line), then the answer is sent.
 *   <li>{@code POST /fault?kind=K&target=T[&ms=M]}: from now on requests of T ({@code assets},
 *       {@code items}, {@code events}, or {@code token}) get fault K, below; {@code kind=none} ends
 *       it. The answer names the fault it replaced and how many answers that fault broke. {@code
 *       GET /fault} says the same of the fault in force, and how many requests it holds now.
 * </ul>
 *
 * <p>With TOKEN_SECS above 0 the API wants credentials: {@code /assets} and {@code /events} a
 * bearer token from {@code POST /token} on a second port (OAuth2 client credentials, HTTP Basic
 * {@code campaign-client:<secret>}, tokens good for TOKEN_SECS), {@code /items} an {@code api_key}
 * query parameter. The secret and the key are made at random and written to DIR/client-secret and
 * DIR/api-key, every token issued is appended to DIR/tokens, so the campaign can look for them in
 * what the fetcher printed.
 *
 * <p>Faults, each on the pages after a listing's first (from page F with {@code &from=F}; events
 * pages count by their offset) unless it says every request; a dump has then handed on rows before
 * the fault:
 *
 * <ul>
 *   <li>{@code timeout}: every request is answered only after M ms (default 3000);
 *   <li>{@code stall}: the headers and half the page's rows, then nothing for M ms (default 30000)
 *       or until the fault ends, then the connection is closed;
 *   <li>{@code reset}: the headers and half the rows, then a TCP reset;
 *   <li>{@code truncate}: a chunked body of half the rows, each a chunk, closed without the last
 *       chunk;
 *   <li>{@code html}: 200 with an HTML sign-in page;
 *   <li>{@code link-loop}: the page's {@code Link} points back to the page before it;
 *   <li>{@code link-endless}: the page's {@code Link} points to the same page under a new URL each
 *       time ({@code &visit=N}), a loop no URL repeats in;
 *   <li>{@code 429}, {@code 429-retry-after}: every request answers 429, without or with {@code
 *       Retry-After: 1};
 *   <li>{@code hang}: no answer for M ms (default 60000) or until the fault ends;
 *   <li>{@code down} (target {@code token}): the token port is closed, so connections to it are
 *       refused, until the fault ends;
 *   <li>{@code cut-short}: half the page's rows, well formed, and no {@code Link}: a listing that
 *       ends early and looks whole, which no client can tell (the campaign's self-test).
 * </ul>
 *
 * <p>Usage: java CampaignRestServer.java DIR ITEMS PAGE_SIZE PAGE_DELAY_MS EVENT_MS [TOKEN_SECS].
 * Binds 127.0.0.1 on free ports, writes them to DIR/port (and DIR/token-port) once it listens, and
 * runs until killed.
 */
public class CampaignRestServer {

  private static final byte[] HTML =
      ("<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n"
              + "<body><h1>Our service is down for maintenance</h1>"
              + "<p>Please sign in again later.</p></body></html>\n")
          .getBytes(StandardCharsets.UTF_8);

  private final Path directory;
  private final int items;
  private final int pageSize;
  private final long pageDelayMillis;
  private final long eventMillis;
  private final long tokenSecs;
  private final long startMillis = System.currentTimeMillis();
  private volatile long stopMillis = Long.MAX_VALUE;
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final SecureRandom random = new SecureRandom();
  private final String clientSecret = secret();
  private final String apiKey = secret();
  private final Map<String, Long> tokenExpiry = new ConcurrentHashMap<>();
  private final AtomicInteger visits = new AtomicInteger();
  private volatile Fault fault = Fault.NONE;
  private ServerSocket tokenSocket;
  private int tokenPort;

  /** A fault in force: what it does, to which requests, and what it did so far. */
  record Fault(
      String kind,
      String target,
      long millis,
      int fromPage,
      AtomicInteger hits,
      AtomicInteger held) {
    static final Fault NONE = new Fault("none", "", 0, 1, new AtomicInteger(), new AtomicInteger());

    /** Whether it breaks every request of its target, not only the pages after the first. */
    boolean everyRequest() {
      return kind.equals("timeout") || kind.startsWith("429");
    }

    String describe() {
      return kind.equals("none") ? "none" : kind + "/" + target;
    }
  }

  /** A request as read off the socket. */
  record Request(
      String method,
      String path,
      Map<String, String> query,
      Map<String, String> rawQuery,
      Map<String, String> headers,
      byte[] body) {}

  /** An answer a fault may still change: a page's rows as encoded elements and its next link. */
  record Page(String contentType, List<String> rows, boolean ndjson, String link) {
    byte[] body(int count) {
      StringBuilder text = new StringBuilder(ndjson ? "" : "[");
      for (int i = 0; i < count; i++) {
        if (ndjson) {
          text.append(rows.get(i)).append('\n');
        } else {
          text.append(i == 0 ? "" : ",").append(rows.get(i));
        }
      }
      if (!ndjson) {
        text.append(count == rows.size() ? "]" : count == 0 ? "" : ",");
      }
      return text.toString().getBytes(StandardCharsets.UTF_8);
    }
  }

  CampaignRestServer(
      Path directory,
      int items,
      int pageSize,
      long pageDelayMillis,
      long eventMillis,
      long tokenSecs) {
    this.directory = directory;
    this.items = items;
    this.pageSize = pageSize;
    this.pageDelayMillis = pageDelayMillis;
    this.eventMillis = eventMillis;
    this.tokenSecs = tokenSecs;
  }

  public static void main(String[] args) throws Exception {
    CampaignRestServer api =
        new CampaignRestServer(
            Path.of(args[0]),
            Integer.parseInt(args[1]),
            Integer.parseInt(args[2]),
            Long.parseLong(args[3]),
            Long.parseLong(args[4]),
            args.length > 5 ? Long.parseLong(args[5]) : 0);
    api.writeListing();
    ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    if (api.tokenSecs > 0) {
      api.writeAtomically("client-secret", api.clientSecret + "\n");
      api.writeAtomically("api-key", api.apiKey + "\n");
      api.openTokenPort(0);
      api.writeAtomically("token-port", api.tokenPort + "\n");
    }
    api.writeAtomically("port", server.getLocalPort() + "\n");
    api.accept(server, api::api);
  }

  private interface Handler {
    void handle(Socket socket, Request request) throws Exception;
  }

  private void accept(ServerSocket server, Handler handler) {
    while (!server.isClosed()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return; // closed: the token port going down
      }
      workers.execute(() -> serve(socket, handler));
    }
  }

  private void serve(Socket socket, Handler handler) {
    try (socket) {
      Request request = read(socket.getInputStream());
      if (request != null) {
        handler.handle(socket, request);
      }
    } catch (Exception e) {
      // The client went away (a timeout, a stop) or a fault cut the connection: nothing to tell.
    }
  }

  private synchronized void openTokenPort(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    tokenSocket = socket;
    tokenPort = socket.getLocalPort();
    Thread accepting = new Thread(() -> accept(socket, this::token), "token-accept");
    accepting.setDaemon(true);
    accepting.start();
  }

  private void api(Socket socket, Request request) throws Exception {
    switch (request.path()) {
      case "/assets" -> listing(socket, request, "assets", false);
      case "/items" -> listing(socket, request, "items", true);
      case "/events" -> events(socket, request);
      case "/stop" -> send(socket, 200, "application/json", Map.of(), stop());
      case "/fault" -> fault(socket, request);
      case "/bad/not-json",
          "/bad/shape",
          "/bad/500",
          "/bad/content-type",
          "/bad/gzip-cut",
          "/bad/gzip-trailer",
          "/bad/huge" ->
          bad(socket, request);
      default ->
          send(socket, 404, "application/json", Map.of(), json("{\"error\":\"no such path\"}"));
    }
  }

  private void listing(Socket socket, Request request, String target, boolean ndjson)
      throws Exception {
    if (!authorized(request, target)) {
      send(socket, 401, "application/json", Map.of(), json("{\"error\":\"unauthorized\"}"));
      return;
    }
    int page = Integer.parseInt(request.query().getOrDefault("page", "0"));
    TimeUnit.MILLISECONDS.sleep(pageDelayMillis); // a page that takes time, so a kill can cut
    int from = page * pageSize;
    int to = Math.min(items, from + pageSize);
    List<String> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add(asset(i));
    }
    String key = ndjson && tokenSecs > 0 ? "&api_key=" + request.rawQuery().get("api_key") : "";
    String link = to < items ? "/" + target + "?page=" + (page + 1) + key : null;
    Fault now = fault;
    if (now.target().equals(target) && page >= now.fromPage()) {
      if (now.kind().equals("link-loop")) {
        link = "/" + target + "?page=" + (page - 1) + key;
      } else if (now.kind().equals("link-endless")) {
        link = "/" + target + "?page=" + page + key + "&visit=" + visits.incrementAndGet();
      }
    }
    String contentType = ndjson ? "application/x-ndjson" : "application/json";
    answer(socket, target, page, new Page(contentType, rows, ndjson, link));
  }

  /**
   * A two-page listing whose second page is bad in the way the path says, for good: page 0 is two
   * items and a {@code Link} to page 1 (echoing the {@code api_key}, so that an error naming page
   * 1 has a key to mask); page 1 is not JSON ({@code not-json}, status 200), a JSON object where
   * an array belongs ({@code shape}), status 500 ({@code 500}), a good page sent as {@code
   * text/html} ({@code content-type}), a gzip body ({@code Content-Encoding: gzip}) cut in the
   * middle of its deflate stream ({@code gzip-cut}) or whose trailer gives a wrong length ({@code
   * gzip-trailer}), or a 1 GiB page whose one element holds a 1 GiB string ({@code huge}), written
   * as it is read and given up when the client goes away.
   */
  private void bad(Socket socket, Request request) throws Exception {
    String kind = request.path().substring("/bad/".length());
    int page = Integer.parseInt(request.query().getOrDefault("page", "0"));
    String key = request.rawQuery().getOrDefault("api_key", "");
    if (page == 0) {
      String link = "</bad/" + kind + "?page=1&api_key=" + key + ">; rel=\"next\"";
      send(
          socket,
          200,
          "application/json",
          Map.of("Link", link),
          json("[" + asset(0) + "," + asset(1) + "]"));
      return;
    }
    switch (kind) {
      case "not-json" -> send(socket, 200, "application/json", Map.of(), json("this is not JSON"));
      case "shape" ->
          send(socket, 200, "application/json", Map.of(), json("{\"items\":[" + asset(2) + "]}"));
      case "500" ->
          send(socket, 500, "application/json", Map.of(), json("{\"error\":\"internal\"}"));
      case "gzip-cut" -> {
        byte[] zipped = gzip(manyAssets());
        send(
            socket,
            200,
            "application/json",
            Map.of("Content-Encoding", "gzip"),
            Arrays.copyOf(zipped, zipped.length / 2));
      }
      case "gzip-trailer" -> {
        byte[] zipped = gzip(manyAssets());
        zipped[zipped.length - 1] ^= 0x01; // ISIZE: the uncompressed length mod 2^32
        send(socket, 200, "application/json", Map.of("Content-Encoding", "gzip"), zipped);
      }
      case "huge" -> huge(socket);
      default ->
          send(socket, 200, "text/html; charset=utf-8", Map.of(), json("[" + asset(2) + "]"));
    }
  }

  /** 2,000 assets as a JSON array: enough that half of its gzip cuts its deflate stream. */
  private String manyAssets() {
    StringBuilder rows = new StringBuilder("[");
    for (int i = 2; i < 2002; i++) {
      rows.append(i == 2 ? "" : ",").append(asset(i));
    }
    return rows.append("]").toString();
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return zipped.toByteArray();
  }

  /**
   * A 1 GiB page, {@code [{"id":2,"blob":"xxx..."}]}, made as it is sent; the bytes sent before
   * the client went away are added to DIR/huge.sent, one line a request.
   */
  private void huge(Socket socket) throws IOException {
    byte[] open = json("[{\"id\":2,\"blob\":\"");
    byte[] close = json("\"}]");
    long blob = (1L << 30) - open.length - close.length;
    byte[] chunk = new byte[1 << 16];
    Arrays.fill(chunk, (byte) 'x');
    OutputStream out = socket.getOutputStream();
    long sent = 0;
    try {
      out.write(head(200, "application/json", Map.of(), "Content-Length: " + (1L << 30)));
      out.write(open);
      sent += open.length;
      for (long left = blob; left > 0; left -= chunk.length) {
        int length = (int) Math.min(chunk.length, left);
        out.write(chunk, 0, length);
        sent += length;
      }
      out.write(close);
      sent += close.length;
      out.flush();
    } catch (IOException e) {
      // The client gave the page up: what was sent is the figure.
    }
    Files.writeString(
        directory.resolve("huge.sent"),
        sent + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  private void events(Socket socket, Request request) throws Exception {
    if (!authorized(request, "events")) {
      send(socket, 401, "application/json", Map.of(), json("{\"error\":\"unauthorized\"}"));
      return;
    }
    long since = Instant.parse(request.query().get("since")).toEpochMilli();
    long until = Instant.parse(request.query().get("until")).toEpochMilli();
    long made = madeBefore(Math.min(until, System.currentTimeMillis() + 1));
    long first = Math.max(0, firstAtOrAfter(since));
    long offset = Long.parseLong(request.query().getOrDefault("offset", "0"));
    long limit =
        Long.parseLong(request.query().getOrDefault("limit", String.valueOf(Long.MAX_VALUE)));
    long index = offset / Math.min(limit, Integer.MAX_VALUE);
    List<String> rows = new ArrayList<>();
    for (long i = first + offset; i < made && rows.size() < limit; i++) {
      rows.add("{\"id\":" + i + ",\"at\":\"" + Instant.ofEpochMilli(eventAt(i)) + "\"}");
    }
    String link = null;
    if (request.query().containsKey("limit") && first + offset + rows.size() < made) {
      link = eventsPage(request, offset + limit);
      Fault now = fault;
      if (now.target().equals("events") && index >= now.fromPage()) {
        if (now.kind().equals("link-loop")) {
          link = eventsPage(request, Math.max(0, offset - limit));
        } else if (now.kind().equals("link-endless")) {
          link = eventsPage(request, offset) + "&visit=" + visits.incrementAndGet();
        }
      }
    }
    answer(socket, "events", index, new Page("application/json", rows, false, link));
  }

  private static String eventsPage(Request request, long offset) {
    Map<String, String> raw = request.rawQuery();
    return "/events?since="
        + raw.get("since")
        + "&until="
        + raw.get("until")
        + "&limit="
        + raw.get("limit")
        + "&offset="
        + offset;
  }

  /** Sends page number {@code index} (from 0), or what the fault in force makes of it. */
  private void answer(Socket socket, String target, long index, Page page) throws Exception {
    Fault now = fault;
    boolean hit = now.target().equals(target) && (index >= now.fromPage() || now.everyRequest());
    Map<String, String> link =
        page.link() == null ? Map.of() : Map.of("Link", "<" + page.link() + ">; rel=\"next\"");
    if (!hit || now.kind().startsWith("link-")) {
      if (hit) {
        hit(now);
      }
      send(socket, 200, page.contentType(), link, page.body(page.rows().size()));
      return;
    }
    hit(now);
    int half = Math.max(1, page.rows().size() / 2);
    OutputStream out = socket.getOutputStream();
    switch (now.kind()) {
      case "timeout" -> {
        TimeUnit.MILLISECONDS.sleep(now.millis() > 0 ? now.millis() : 3000);
        send(socket, 200, page.contentType(), link, page.body(page.rows().size()));
      }
      case "hang" -> {
        hold(now, 60_000);
        send(socket, 200, page.contentType(), link, page.body(page.rows().size()));
      }
      case "stall" -> {
        byte[] whole = page.body(page.rows().size());
        out.write(head(200, page.contentType(), link, "Content-Length: " + whole.length));
        out.write(page.body(half));
        out.flush();
        hold(now, 30_000);
      }
      case "reset" -> {
        byte[] whole = page.body(page.rows().size());
        out.write(head(200, page.contentType(), link, "Content-Length: " + whole.length));
        out.write(page.body(half));
        out.flush();
        socket.setSoLinger(true, 0); // close sends a reset, not the rest of the body
      }
      case "truncate" -> {
        out.write(head(200, page.contentType(), link, "Transfer-Encoding: chunked"));
        byte[] part = page.body(half);
        out.write((Integer.toHexString(part.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(part);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        socket.shutdownOutput(); // an orderly end of the stream, without the last 0-length chunk
      }
      case "html" -> send(socket, 200, "text/html; charset=utf-8", Map.of(), HTML);
      case "cut-short" -> {
        Page first =
            new Page(page.contentType(), page.rows().subList(0, half), page.ndjson(), null);
        send(socket, 200, page.contentType(), Map.of(), first.body(half));
      }
      case "429" ->
          send(socket, 429, "application/json", Map.of(), json("{\"error\":\"slow down\"}"));
      case "429-retry-after" ->
          send(
              socket,
              429,
              "application/json",
              Map.of("Retry-After", "1"),
              json("{\"error\":\"slow down\"}"));
      default -> send(socket, 200, page.contentType(), link, page.body(page.rows().size()));
    }
  }

  private void hit(Fault now) {
    int hits = now.hits().incrementAndGet();
    System.out.printf("%d fault %s hit %d%n", System.currentTimeMillis(), now.describe(), hits);
  }

  /** Holds the request until the fault ends or {@code fallback} ms (the fault's own ms) pass. */
  private void hold(Fault now, long fallback) throws InterruptedException {
    long until = System.currentTimeMillis() + (now.millis() > 0 ? now.millis() : fallback);
    now.held().incrementAndGet();
    try {
      while (fault == now && System.currentTimeMillis() < until) {
        TimeUnit.MILLISECONDS.sleep(20);
      }
    } finally {
      now.held().decrementAndGet();
    }
  }

  private synchronized void fault(Socket socket, Request request) throws Exception {
    Fault previous = fault;
    String answer;
    if (request.method().equals("GET")) {
      answer =
          "{\"fault\":\"%s\",\"hits\":%d,\"held\":%d}"
              .formatted(previous.describe(), previous.hits().get(), previous.held().get());
    } else {
      String kind = request.query().getOrDefault("kind", "none");
      Fault next =
          kind.equals("none")
              ? Fault.NONE
              : new Fault(
                  kind,
                  request.query().getOrDefault("target", ""),
                  Long.parseLong(request.query().getOrDefault("ms", "0")),
                  Math.max(1, Integer.parseInt(request.query().getOrDefault("from", "1"))),
                  new AtomicInteger(),
                  new AtomicInteger());
      if (previous.kind().equals("down") && tokenSocket.isClosed()) {
        openTokenPort(tokenPort);
      }
      fault = next;
      if (next.kind().equals("down")) {
        tokenSocket.close();
      }
      System.out.printf(
          "%d fault %s -> %s (it broke %d answers)%n",
          System.currentTimeMillis(), previous.describe(), next.describe(), previous.hits().get());
      answer =
          "{\"previous\":\"%s\",\"hits\":%d,\"fault\":\"%s\"}"
              .formatted(previous.describe(), previous.hits().get(), next.describe());
    }
    send(socket, 200, "application/json", Map.of(), json(answer));
  }

  private void token(Socket socket, Request request) throws Exception {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    ("campaign-client:" + clientSecret).getBytes(StandardCharsets.UTF_8));
    String form = new String(request.body(), StandardCharsets.UTF_8);
    if (!request.path().equals("/token")
        || !expected.equals(request.headers().get("authorization"))
        || !form.contains("grant_type=client_credentials")) {
      send(socket, 401, "application/json", Map.of(), json("{\"error\":\"invalid_client\"}"));
      return;
    }
    String token = secret();
    tokenExpiry.put(token, System.currentTimeMillis() + tokenSecs * 1000);
    Files.writeString(
        directory.resolve("tokens"),
        token + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    send(
        socket,
        200,
        "application/json",
        Map.of(),
        json(
            "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":%d}"
                .formatted(token, tokenSecs)));
  }

  private boolean authorized(Request request, String target) {
    if (tokenSecs == 0) {
      return true;
    }
    if (target.equals("items")) {
      return apiKey.equals(request.query().get("api_key"));
    }
    String authorization = request.headers().getOrDefault("authorization", "");
    if (!authorization.startsWith("Bearer ")) {
      return false;
    }
    Long expiry = tokenExpiry.get(authorization.substring("Bearer ".length()));
    return expiry != null && expiry > System.currentTimeMillis();
  }

  private synchronized byte[] stop() throws IOException {
    if (stopMillis == Long.MAX_VALUE) {
      stopMillis = System.currentTimeMillis();
    }
    long made = madeBefore(stopMillis + 1);
    StringBuilder ids = new StringBuilder();
    for (long i = 0; i < made; i++) {
      ids.append(i).append('\n');
    }
    writeAtomically("events.expected", ids.toString());
    return json("{\"events\":" + made + "}");
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

  private String secret() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
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

  private static byte[] json(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] head(
      int status, String contentType, Map<String, String> headers, String framing) {
    StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n");
    head.append("Content-Type: ").append(contentType).append("\r\n");
    head.append("Connection: close\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append(framing).append("\r\n\r\n");
    return head.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static void send(
      Socket socket, int status, String contentType, Map<String, String> headers, byte[] body)
      throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(head(status, contentType, headers, "Content-Length: " + body.length));
    out.write(body);
    out.flush();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 401 -> "Unauthorized";
      case 404 -> "Not Found";
      case 429 -> "Too Many Requests";
      default -> "Status";
    };
  }

  /** The request line, the headers (names in lower case) and a Content-Length body; null at EOF. */
  private static Request read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      state = (b == '\r' && state % 2 == 0) || (b == '\n' && state % 2 == 1) ? state + 1 : 0;
      if (head.size() > 64 * 1024) {
        throw new IOException("request head too long");
      }
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
    String target = requestLine[1];
    int question = target.indexOf('?');
    String path = question < 0 ? target : target.substring(0, question);
    Map<String, String> raw = new LinkedHashMap<>();
    Map<String, String> query = new LinkedHashMap<>();
    if (question >= 0) {
      for (String pair : target.substring(question + 1).split("&")) {
        int equals = pair.indexOf('=');
        if (equals > 0) {
          // The first value of a name wins: a next link may repeat the api_key the client adds.
          raw.putIfAbsent(pair.substring(0, equals), pair.substring(equals + 1));
          query.putIfAbsent(
              pair.substring(0, equals),
              URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return new Request(requestLine[0], path, query, raw, headers, body);
  }
}
