package dfe.fetcher.app.deploy;

import static dfe.fetcher.app.deploy.DeployTools.ROOT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of the Grafana dashboard, and every recording rule, run by a real Prometheus
 * (Debian's {@code prometheus}) on loopback, scraping a fetcher this test starts in a JVM of its
 * own: a file unit, a file unit that holds back an unsettled file, an oversize row, and a REST unit
 * whose API answers 429 once, so every family the fetcher serves has series. Each query must return
 * series, but those on series the fetcher does not serve yet ({@link
 * DeployArtefactsTest#NOT_EXPORTED_YET}), which must return none.
 */
class DashboardQueriesTest {

  private static final Pattern SERIES = Pattern.compile("\\bdfe_fetcher_[a-z0-9_]+\\b");

  @TempDir Path directory;

  private final List<Process> processes = new ArrayList<>();
  private HttpServer api;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    if (api != null) {
      api.stop(0);
    }
  }

  @Test
  void everyPanelQueryReturnsSeriesFromARealPrometheusScrapingAFetcher() throws Exception {
    Path prometheus = DeployTools.require("prometheus", "prometheus");
    int apiPort = startApi();
    int fetcherPort = freePort();
    int prometheusPort = freePort();

    Path data = Files.createDirectories(directory.resolve("data"));
    Files.writeString(
        data.resolve("hosts.ndjson"),
        "{\"id\":1,\"alive\":true}\n{\"id\":2,\"alive\":false}\n{\"id\":3,\"alive\":true,\"pad\":\""
            + "x".repeat(400)
            + "\"}\n");
    Path fresh = Files.createDirectories(directory.resolve("fresh"));
    Files.writeString(fresh.resolve("new.ndjson"), "{\"id\":9}\n");
    Path logs = Files.createDirectories(directory.resolve("logs"));
    Files.writeString(logs.resolve("app.log"), "started\nlistening\n");
    Path config =
        Files.writeString(
            directory.resolve("config.yaml"),
            """
            instance_id: dashboard
            scheduler: {default_interval_secs: 2}
            oversize: {max_record_bytes: 300}
            metrics: {address: "127.0.0.1:%d"}
            sources:
              file:
                inventory:
                  topic: inventory
                  filter: "record.alive == true"
                  units:
                    - unit: hosts
                      row_key: /id
                      dump: {paths: [data/*.ndjson]}
                    - unit: fresh
                      dump: {paths: [fresh/*.ndjson], settle_secs: 3600}
                    - unit: follow
                      tail: {paths: [logs/*.log], decoder: lines}
              rest:
                lab:
                  topic: lab
                  auth: {mode: none}
                  profile:
                    base_url: "http://127.0.0.1:%d"
                    retry: {max_retries: 3, initial_backoff_ms: 10, max_backoff_ms: 100}
                    quota: {headers: {limit: X-RateLimit-Limit, reset: X-RateLimit-Reset}}
                    endpoints:
                      - unit: items
                        shape: dump
                        path: /items
                        rows: {decoder: json_array}
                        paginate: {type: none}
            """
                .formatted(fetcherPort, apiPort));
    startFetcher(config);

    // The rules as shipped, but evaluated every second rather than every minute.
    Path rules =
        Files.writeString(
            directory.resolve("rules.yaml"),
            Files.readString(ROOT.resolve("deploy/prometheus/dfe-fetcher.rules.yaml"))
                .replace("    interval: 1m\n", "    interval: 1s\n"));
    Path prometheusConfig =
        Files.writeString(
            directory.resolve("prometheus.yml"),
            """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            rule_files: ["%s"]
            scrape_configs:
              - job_name: dfe-fetcher
                static_configs: [{targets: ["127.0.0.1:%d"]}]
            """
                .formatted(rules, fetcherPort));
    Path log = directory.resolve("prometheus.log");
    processes.add(
        new ProcessBuilder(
                prometheus.toString(),
                "--config.file=" + prometheusConfig,
                "--storage.tsdb.path=" + directory.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + prometheusPort)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start());
    String base = "http://127.0.0.1:" + prometheusPort;

    // Wait until Prometheus has scraped a few times and the REST unit has been throttled.
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (true) {
      JsonNode throttled =
          queryOrNull(base, "increase(dfe_fetcher_rest_throttled_total[30s])", log);
      JsonNode samples = queryOrNull(base, "count_over_time(up[30s])", log);
      if (throttled != null
          && !throttled.isEmpty()
          && samples != null
          && !samples.isEmpty()
          && samples.get(0).path("value").get(1).asDouble() >= 6) {
        break;
      }
      if (System.nanoTime() > deadline) {
        fail(
            "Prometheus did not scrape the fetcher's REST series in 120 s; its log:%n%s",
            Files.readString(log));
      }
      Thread.sleep(500);
    }

    Map<String, Integer> results = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    for (String panelQuery : DeployArtefactsTest.dashboardExpressions()) {
      String query =
          panelQuery
              .replace("$__rate_interval", "30s")
              .replace("\"$job\"", "\".*\"")
              .replace("\"$unit\"", "\".*\"");
      JsonNode result = queryOrNull(base, query, log);
      if (result == null) {
        problems.add("refused: " + query);
        continue;
      }
      results.put(query, result.size());
      boolean coming = false;
      Matcher series = SERIES.matcher(query);
      while (series.find()) {
        coming |= DeployArtefactsTest.NOT_EXPORTED_YET.contains(series.group());
      }
      if (coming && !result.isEmpty()) {
        problems.add("returns series, though listed as not exported yet: " + query);
      } else if (!coming && result.isEmpty()) {
        problems.add("returns no series: " + query);
      }
    }
    // The recording rules, evaluated by the same Prometheus from the same scrapes.
    for (String recorded :
        List.of(
            "dfe_fetcher:records:rate5m",
            "dfe_fetcher:snapshot_rows:rate5m",
            "dfe_fetcher:snapshots:increase1h",
            "dfe_fetcher:ticks:increase1h",
            "dfe_fetcher:tick_failures:increase1h",
            "dfe_fetcher:tick_duration_seconds:p95_15m",
            "dfe_fetcher:dlq:increase1h",
            "dfe_fetcher:records_filtered:rate5m",
            "dfe_fetcher:rest_throttled:ratio15m")) {
      JsonNode result = queryOrNull(base, recorded, log);
      for (int wait = 0; wait < 20 && (result == null || result.isEmpty()); wait++) {
        Thread.sleep(500);
        result = queryOrNull(base, recorded, log);
      }
      if (result == null || result.isEmpty()) {
        problems.add("recording rule has no series: " + recorded);
      }
    }
    assertThat(problems).as("queries run against %s: %s", base, results).isEmpty();
    assertThat(results).hasSizeGreaterThanOrEqualTo(15);
  }

  /**
   * The {@code result} of an instant query, or null when Prometheus refused it or is not up (or not
   * ready).
   */
  private JsonNode queryOrNull(String base, String query, Path log) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    base
                        + "/api/v1/query?query="
                        + URLEncoder.encode(query, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(5))
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException notUpYet) {
      return null;
    }
    if (response.statusCode() != 200) {
      return null; // starting up: "Service Unavailable", not JSON, until its storage is ready
    }
    JsonNode body = new ObjectMapper().readTree(response.body());
    if (!"success".equals(body.path("status").asText())) {
      return null;
    }
    return body.path("data").path("result");
  }

  private void startFetcher(Path config) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(
        List.of(
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            "dfe.fetcher.app.cli.DfeFetcher",
            "run",
            "--config",
            config.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("fetcher.log").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    processes.add(builder.start());
  }

  /** A REST API whose first answer is 429, then a JSON array of two records with the quota left. */
  private int startApi() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    api.createContext(
        "/items",
        exchange -> {
          byte[] body;
          if (requests.getAndIncrement() == 0) {
            body = "{\"error\":\"slow down\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Retry-After", "0");
            exchange.sendResponseHeaders(429, body.length);
          } else {
            body = "[{\"id\":\"a\"},{\"id\":\"b\"}]".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("X-RateLimit-Remaining", "4999");
            exchange.getResponseHeaders().set("X-RateLimit-Limit", "5000");
            exchange.getResponseHeaders().set("X-RateLimit-Reset", "60");
            exchange.sendResponseHeaders(200, body.length);
          }
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    api.start();
    return api.getAddress().getPort();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
