package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run in a child JVM with a small heap by {@link HugeJsonAtTest}: serves a first page of {@code
 * {"meta":...,"data":[...],"next":"p2"}} of {@code args[0]} bytes, generated on the fly, whose
 * cursor comes after the rows, and a small second page; reads them through a REST dump with {@code
 * json_at} and a body cursor, printing {@code rows=N bytes=M ended=true requests=2}. Nothing is
 * kept but counters, so whatever the source holds shows as heap.
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
    long[] rows = {0, 0};
    boolean[] ended = {false};
    RowSink counting =
        new RowSink() {
          @Override
          public void beginPart(OptionalLong total) {}

          @Override
          public void row(Row row) {
            rows[0]++;
            rows[1] += row.record().length() + 1;
          }

          @Override
          public void endPart(Optional<Mark> position) {
            ended[0] = true;
          }

          @Override
          public void abortPart(String reason) {
            System.out.println("aborted: " + reason);
          }

          @Override
          public void advance(Mark mark) {}
        };
    long started = System.nanoTime();
    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      open.source("assets").read(Optional.empty(), counting, new Cancellation());
    }
    server.stop(0);
    Runtime runtime = Runtime.getRuntime();
    System.out.println(
        "rows="
            + rows[0]
            + " bytes="
            + rows[1]
            + " ended="
            + ended[0]
            + " served_rows="
            + served[0]
            + " requests="
            + requests.get()
            + " seconds="
            + (System.nanoTime() - started) / 1_000_000_000L
            + " max_heap_mb="
            + runtime.maxMemory() / (1024 * 1024));
  }
}
