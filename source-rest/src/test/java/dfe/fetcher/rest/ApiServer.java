package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on 127.0.0.1 for tests: answers by path with what each test scripts, and
 * records every request it saw (method, path and query, headers, body).
 */
final class ApiServer implements AutoCloseable {

  /** A request as the server saw it. */
  record Seen(String method, String pathAndQuery, Map<String, List<String>> headers, String body) {
    String header(String name) {
      for (Map.Entry<String, List<String>> header : headers.entrySet()) {
        if (header.getKey().equalsIgnoreCase(name)) {
          return header.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** How to answer one request. */
  @FunctionalInterface
  interface Answer {
    void answer(HttpExchange exchange) throws IOException;
  }

  /** The attribute of an exchange that holds its request body, read. */
  static final String BODY = "dfe.body";

  private final HttpServer server;
  private final Map<String, List<Answer>> scripts = new ConcurrentHashMap<>();
  private final Map<String, Integer> served = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

  ApiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * A server started on a free port, for a test's field ({@code @AutoClose private final ApiServer
   * server = ApiServer.started();}), which JUnit closes after each test.
   */
  static ApiServer started() {
    try {
      return new ApiServer();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the test's HTTP server", e);
    }
  }

  /** {@code http://127.0.0.1:PORT}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers requests to {@code path} with {@code answers} in turn, the last one from then on. */
  ApiServer on(String path, Answer... answers) {
    scripts.put(path, List.of(answers));
    return this;
  }

  List<Seen> requests() {
    return Collections.unmodifiableList(new ArrayList<>(seen));
  }

  List<String> paths() {
    return requests().stream().map(Seen::pathAndQuery).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    URI uri = exchange.getRequestURI();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(
        new Seen(
            exchange.getRequestMethod(),
            uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()),
            Map.copyOf(exchange.getRequestHeaders()),
            body));
    // An answer that checks what it was sent reads the body here: it has been read above.
    exchange.setAttribute(BODY, body);
    List<Answer> answers = scripts.get(uri.getPath());
    if (answers == null) {
      json(404, "{\"message\":\"no such path\"}").answer(exchange);
      return;
    }
    int n = served.merge(uri.getPath(), 1, Integer::sum) - 1;
    try {
      answers.get(Math.min(n, answers.size() - 1)).answer(exchange);
    } finally {
      exchange.close();
    }
  }

  static Answer json(int status, String body, String... headers) {
    return send(status, "application/json", body.getBytes(StandardCharsets.UTF_8), headers);
  }

  /**
   * Answers by the request's raw query string ({@code ""} for none) with {@code answers}; any other
   * query gets a 400, so a test sees a request it did not expect.
   */
  static Answer byQuery(Map<String, Answer> answers) {
    return exchange -> {
      String query = exchange.getRequestURI().getRawQuery();
      Answer answer = answers.get(query == null ? "" : query);
      if (answer == null) {
        json(400, "{\"error\":\"unexpected query\"}").answer(exchange);
      } else {
        answer.answer(exchange);
      }
    };
  }

  static Answer ok(String body, String... headers) {
    return json(200, body, headers);
  }

  static Answer send(int status, String type, byte[] body, String... headers) {
    return exchange -> {
      exchange.getResponseHeaders().add("Content-Type", type);
      for (int i = 0; i + 1 < headers.length; i += 2) {
        exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
      }
      exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    };
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
