package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Run in a child JVM with a small heap by {@link HugeNdjsonTest}: serves {@code args[0]} bytes of
 * NDJSON generated on the fly and reads them through a REST dump ({@link SmallHeapRead#count}).
 */
public final class HugeNdjsonMain {

  private HugeNdjsonMain() {}

  public static void main(String[] args) throws Exception {
    long target = Long.parseLong(args[0]);
    byte[] padding = "x".repeat(400).getBytes(StandardCharsets.UTF_8);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    long[] served = {0, 0};
    server.createContext(
        "/export.ndjson",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 1 << 16)) {
            long bytes = 0;
            long n = 0;
            while (bytes < target) {
              byte[] head = ("{\"id\":" + n + ",\"pad\":\"").getBytes(StandardCharsets.UTF_8);
              out.write(head);
              out.write(padding);
              out.write("\"}\n".getBytes(StandardCharsets.UTF_8));
              bytes += head.length + padding.length + 3;
              n++;
            }
            served[0] = n;
            served[1] = bytes;
          }
        });
    server.start();
    RestConnection connection =
        RestFixture.connection(
            """
            topic: big
            profile:
              base_url: "http://127.0.0.1:%d"
              endpoints:
                - {unit: assets, shape: dump, path: /export.ndjson, rows: {decoder: ndjson},
                   timeout_secs: 120}
            """
                .formatted(server.getAddress().getPort()));
    String counted = SmallHeapRead.count(connection);
    server.stop(0);
    System.out.println("served_rows=" + served[0] + " " + counted);
  }
}
