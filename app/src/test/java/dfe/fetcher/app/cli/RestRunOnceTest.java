package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --once} over {@code sources.rest} against a real local server: a dump lands complete,
 * a dump cut at {@code max_pages} lands without an end and fails the run naming it, and an tail
 * unit lands plain records and commits its window.
 */
class RestRunOnceTest {

  @TempDir Path directory;
  private HttpServer server;
  private final List<String> requested = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String query = exchange.getRequestURI().getRawQuery();
          String path = exchange.getRequestURI().getPath();
          requested.add(path + (query == null ? "" : "?" + query));
          String body;
          String link = null;
          if (path.equals("/assets")) {
            body = query == null ? "[{\"id\":1}]" : "[{\"id\":2}]";
            link = query == null ? "</assets?page=2>; rel=\"next\"" : null;
          } else if (path.equals("/endless")) {
            int page = query == null ? 1 : Integer.parseInt(query.substring("page=".length()));
            body = "[{\"id\":" + page + "}]";
            link = "</endless?page=" + (page + 1) + ">; rel=\"next\"";
          } else {
            body = "{\"data\":[{\"id\":\"e1\"}]}";
          }
          if (link != null) {
            exchange.getResponseHeaders().add("Link", link);
          }
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aCompleteDumpAnAbortedDumpAndAWindowLandAsTheyShould() throws Exception {
    String url = "http://127.0.0.1:" + server.getAddress().getPort();
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  rest:
                    lab:
                      topic: lab
                      vars: {host: "%s"}
                      profile:
                        base_url: "{{ vars.host }}"
                        endpoints:
                          - {unit: assets, shape: dump, path: /assets, row_key: /id,
                             rows: {decoder: json_array}, paginate: {type: link_header}}
                          - {unit: endless, shape: dump, path: /endless, max_pages: 3,
                             rows: {decoder: json_array}, paginate: {type: link_header}}
                          - unit: events
                            shape: tail
                            path: /events
                            query: {since: "{{ window.start }}", until: "{{ window.end }}"}
                            rows: {decoder: json_at, at: /data}
                            window: {format: rfc3339_secs, lookback: 1h}
                """
                    .formatted(url));

    CliRun run = CliRun.of("run", "--config", config.toString(), "--once");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.errLines())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("unit lab.endless failed: ")
                    .contains("reached max_pages 3 with more to read"))
        .contains("ran 3 units, 1 failed");
    assertThat(workspace.completeSnapshotRows("lab-assets_land"))
        .containsExactly(List.of("{\"id\":1}", "{\"id\":2}"));
    List<SnapshotReport> endless = workspace.reports("lab-endless_land");
    assertThat(endless).extracting(SnapshotReport::status).containsExactly(SnapshotStatus.OPEN);
    assertThat(workspace.completeSnapshots("lab-endless_land")).isZero();
    assertThat(workspace.lines("lab_land")).hasSize(1).allMatch(line -> line.contains("\"e1\""));
    assertThat(Files.readString(workspace.state().resolve("test.lab.events.json")))
        .contains("window");
    assertThat(requested).filteredOn(p -> p.startsWith("/endless")).hasSize(3);
  }
}
