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

/**
 * Run in a child JVM with a small heap by {@link HugeNdjsonTest}: serves {@code args[0]} bytes of
 * NDJSON generated on the fly and reads them through a REST dump, printing {@code rows=N bytes=M
 * ended=true}. Nothing is kept but counters, so whatever the source holds shows as heap.
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
            + " seconds="
            + (System.nanoTime() - started) / 1_000_000_000L
            + " max_heap_mb="
            + runtime.maxMemory() / (1024 * 1024));
  }
}
