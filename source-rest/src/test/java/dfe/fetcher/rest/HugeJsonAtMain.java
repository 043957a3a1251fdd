package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run in a child JVM with a small heap by {@link HugeJsonAtTest}: serves a first page of {@code
 * {"meta":...,"data":[...],"next":"p2"}} of {@code args[0]} bytes, generated on the fly, whose
 * cursor comes after the rows, and a small second page; reads them through a REST dump with {@code
 * json_at} and a body cursor, counting what lands ({@link SmallHeapRead#count}) and the requests.
 */
public final class HugeJsonAtMain {

  private HugeJsonAtMain() {}

  public static void main(String[] args) throws Exception {
    long target = Long.parseLong(args[0]);
    byte[] padding = "x".repeat(400).getBytes(StandardCharsets.UTF_8);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    long[] served = {0};
    AtomicLong requests = new AtomicLong();
    server.createContext(
        "/export",
        exchange -> {
          requests.incrementAndGet();
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 1 << 16)) {
            if (exchange.getRequestURI().getRawQuery() != null) {
              out.write("{\"data\":[{\"id\":-1}],\"next\":null}".getBytes(StandardCharsets.UTF_8));
              served[0]++;
              return;
            }
            out.write("{\"meta\":{\"export\":\"all\"},\"data\":[".getBytes(StandardCharsets.UTF_8));
            long bytes = 0;
            long n = 0;
            while (bytes < target) {
              byte[] head =
                  ((n == 0 ? "" : ",") + "{\"id\":" + n + ",\"pad\":\"")
                      .getBytes(StandardCharsets.UTF_8);
              out.write(head);
              out.write(padding);
              out.write("\"}".getBytes(StandardCharsets.UTF_8));
              bytes += head.length + padding.length + 2;
              n++;
            }
            out.write("],\"next\":\"p2\"}".getBytes(StandardCharsets.UTF_8));
            served[0] += n;
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
                - {unit: assets, shape: dump, path: /export, timeout_secs: 120,
                   rows: {decoder: json_at, at: /data},
                   paginate: {type: cursor, from: "body:/next", into: "query:page"}}
            """
                .formatted(server.getAddress().getPort()));
    String counted = SmallHeapRead.count(connection);
    server.stop(0);
    System.out.println("served_rows=" + served[0] + " " + counted + " requests=" + requests.get());
  }
}
