package dfe.fetcher.source.config.vault;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;

/**
 * A local server answering in Vault's KV version 2 and AppRole shapes, as the real one documents
 * them: {@code GET /v1/<mount>/data/<path>} and {@code POST /v1/auth/approle/login}. Answers are
 * set per path; every request is recorded with its method, path, token header, namespace and body.
 */
final class FakeVault implements AutoCloseable {

  record Answer(int status, String body) {}

  record Request(String method, String path, String token, String namespace, String body) {}

  private final HttpServer server;
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final Map<String, Answer> once = new ConcurrentHashMap<>();
  final List<Request> requests = new CopyOnWriteArrayList<>();

  private FakeVault(HttpServer server) {
    this.server = server;
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeVault http() throws IOException {
    return new FakeVault(
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
  }

  static FakeVault https(SSLContext context) throws IOException {
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    return new FakeVault(server);
  }

  String address() {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return scheme + "://127.0.0.1:" + server.getAddress().getPort();
  }

  void answer(String path, int status, String body) {
    answers.put(path, new Answer(status, body));
  }

  /** Answers the next request to {@code path} so, and the ones after as before. */
  void answerOnce(String path, int status, String body) {
    once.put(path, new Answer(status, body));
  }

  /** A KV v2 read answer of {@code data}, as Vault sends it (lease_duration 0). */
  void secret(String path, String data) {
    answer(
        path,
        200,
        """
        {"request_id":"r1","lease_id":"","renewable":false,"lease_duration":0,
         "data":{"data":%s,
                 "metadata":{"created_time":"2026-05-01T12:00:00Z","custom_metadata":null,
                             "deletion_time":"","destroyed":false,"version":3}},
         "wrap_info":null,"warnings":null,"auth":null}
        """
            .formatted(data));
  }

  long readsOf(String path) {
    return requests.stream().filter(r -> r.path().equals(path)).count();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = exchange.getRequestURI().getPath();
    requests.add(
        new Request(
            exchange.getRequestMethod(),
            path,
            exchange.getRequestHeaders().getFirst("X-Vault-Token"),
            exchange.getRequestHeaders().getFirst("X-Vault-Namespace"),
            body));
    Answer answer = once.remove(path);
    if (answer == null) {
      answer = answers.getOrDefault(path, new Answer(404, "{\"errors\":[]}"));
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(answer.status(), bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
