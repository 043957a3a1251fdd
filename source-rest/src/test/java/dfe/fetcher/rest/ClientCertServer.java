package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An HTTPS server on 127.0.0.1 that requires a client certificate it trusts: answers {@code
 * [{"id":1}]} and records the subject of each client certificate it was shown.
 */
final class ClientCertServer implements AutoCloseable {

  private final HttpsServer server;
  private final ConcurrentLinkedQueue<String> clients = new ConcurrentLinkedQueue<>();

  ClientCertServer(SSLContext context) throws Exception {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
            ssl.setNeedClientAuth(true);
            params.setSSLParameters(ssl);
          }
        });
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            exchange.getRequestBody().readAllBytes();
            X509Certificate client =
                (X509Certificate)
                    ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
            clients.add(client.getSubjectX500Principal().getName());
            byte[] body = "[{\"id\":1}]".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          }
        });
    server.start();
  }

  String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  int port() {
    return server.getAddress().getPort();
  }

  List<String> clients() {
    return List.copyOf(clients);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
