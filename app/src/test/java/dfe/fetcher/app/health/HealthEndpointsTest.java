package dfe.fetcher.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /livez}, {@code /readyz} and {@code /metrics} of a started service, over real HTTP. */
class HealthEndpointsTest {

  private static final String SECRET = "hunter2-kafka-password";
  private static final String RECORD_MARKER = "rec-marker";

  private static final String ONE_CONNECTION =
      FetcherWorkspace.HEADER
          + """
          sources:
            file:
              inventory:
                topic: inventory
                units:
                  - unit: hosts
                    dump: {paths: [data/hosts/*.ndjson]}
          """;

  /**
   * A configuration whose first tick touches every metric: a row the filter drops, an oversize row
   * (a stub and a DLQ entry), complete snapshots and checkpoints, and a unit that fails.
   */
  private static final String EVERY_METRIC =
      """
      instance_id: test
      output:
        file: {directory: landing}
        batch: {linger_ms: 0}
        kafka:
          properties:
            sasl.jaas.config: "%s"
      oversize: {max_record_bytes: 80, max_dlq_bytes: 10}
      cursor: {directory: state}
      metrics: {address: "127.0.0.1:0"}
      sources:
        file:
          inventory:
            topic: inventory
            filter: 'record.alive == true'
            units:
              - unit: hosts
                row_key: /id
                dump: {paths: [data/hosts/*.ndjson]}
          broken:
            topic: broken
            units:
              - unit: feed
                dump: {paths: [data/broken/*.ndjson]}
          logs:
            topic: logs
            interval_secs: 1
            units:
              - unit: follow
                tail: {paths: [data/logs/*.log], decoder: lines}
        rest:
          api:
            topic: api
            auth: {mode: bearer, token: "%s"}
            profile:
              base_url: "%s"
              retry: {max_retries: 2, initial_backoff_ms: 1, max_backoff_ms: 2}
              quota:
                headers: {remaining: X-RateLimit-Remaining, limit: X-RateLimit-Limit,
                          reset: X-RateLimit-Reset}
              endpoints:
                - {unit: items, shape: dump, path: /items, rows: {decoder: json_array},
                   paginate: {type: link_header}}
      """;

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private FetcherService service;
  private HealthServer health;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
  }

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.close();
    }
    if (health != null) {
      health.close();
    }
    if (api != null) {
      api.stop(0);
    }
  }

  /**
   * The REST API of {@link #EVERY_METRIC}: a 429 first (a throttle and a retry), then a page with
   * the quota left and a link to a second page on another origin.
   */
  private HttpServer api;

  private String everyMetric() throws IOException {
    api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger served = new AtomicInteger();
    api.createContext(
        "/items",
        exchange -> {
          int n = served.getAndIncrement();
          boolean throttle = n == 0;
          byte[] body =
              (throttle ? "{}" : n == 1 ? "[{\"id\":\"rec-marker-epsilon\"}]" : "[]")
                  .getBytes(StandardCharsets.UTF_8);
          if (throttle) {
            exchange.getResponseHeaders().add("Retry-After", "0");
          }
          // A next page on another origin (localhost is not 127.0.0.1): fetched without
          // credentials, counted as withheld.
          // The quota the profile's quota.headers name (dfe_fetcher_api_quota_remaining, _limit
          // and _reset_seconds).
          exchange.getResponseHeaders().add("X-RateLimit-Remaining", "4999");
          exchange.getResponseHeaders().add("X-RateLimit-Limit", "5000");
          exchange.getResponseHeaders().add("X-RateLimit-Reset", "60");
          if (n == 1) {
            exchange
                .getResponseHeaders()
                .add(
                    "Link",
                    "<http://localhost:"
                        + api.getAddress().getPort()
                        + "/items?p=2>; rel=\"next\"");
          }
          exchange.sendResponseHeaders(throttle ? 429 : 200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    api.start();
    return EVERY_METRIC.formatted(SECRET, SECRET, "http://127.0.0.1:" + api.getAddress().getPort());
  }

  private void start(String yaml) throws IOException {
    FetcherConfig config = workspace.load(workspace.config(yaml));
    service = FetcherService.create(config, Clock.systemUTC());
    health = HealthServer.serve(service, config.metrics());
    service.start();
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + health.port() + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void livezAnswers200WhileTheProcessRuns() throws Exception {
    start(ONE_CONNECTION);

    assertThat(get("/livez").statusCode()).isEqualTo(200);
    assertThat(get("/no-such-path").statusCode()).isEqualTo(404);
  }

  @Test
  void readyzFollowsWhetherTheLandingDirectoryIsWritable() throws Exception {
    start(ONE_CONNECTION);
    assertThat(get("/readyz").statusCode()).isEqualTo(200);

    Files.createDirectories(workspace.landing().getParent());
    Files.writeString(workspace.landing(), "a file where the landing directory should be");
    HttpResponse<String> blocked = get("/readyz");
    assertThat(blocked.statusCode()).isEqualTo(503);
    assertThat(blocked.body()).contains("not ready");

    Files.delete(workspace.landing());
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
  }

  @Test
  void readyzIs503WhenTheLandingDirectoryCannotBeCreatedBecauseItsParentIsAFile() throws Exception {
    Files.writeString(directory.resolve("blocker"), "a regular file");
    start(ONE_CONNECTION.replace("directory: landing", "directory: blocker/landing"));

    assertThat(get("/readyz").statusCode()).isEqualTo(503);
  }

  @Test
  void metricsListEveryMetricATickTouched() throws Exception {
    writeDataTouchingEveryMetric();
    start(everyMetric());

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(get("/metrics").body())
                    .contains(
                        "dfe_fetcher_snapshots_total{status=\"complete\",store=\"inventory.hosts\"}")
                    .contains(MetricNames.TICK_FAILURES + "{source=\"broken.feed\"}")
                    .contains(MetricNames.REST_PAGES + "{source=\"api.items\"}")
                    .contains(MetricNames.TAIL_LINES + "{source=\"logs.follow\"}"));
    // A rotation by rename, for dfe_fetcher_tail_rotations_total.
    Path logs = workspace.directory().resolve("data/logs");
    Files.move(logs.resolve("app.log"), logs.resolve("app.log.1"));
    Files.writeString(logs.resolve("app.log"), "restarted\n");
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(get("/metrics").body()).contains(MetricNames.TAIL_ROTATIONS + "{"));

    String metrics = get("/metrics").body();
    for (String name : metricNames()) {
      assertThat(sampleLines(metrics)).as(name).anyMatch(line -> line.startsWith(name));
    }
  }

  @Test
  void metricLabelsNameStoresTopicsAndFixedWordsOnlyNeverASecretOrRecordContent() throws Exception {
    writeDataTouchingEveryMetric();
    start(everyMetric());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              String body = get("/metrics").body();
              return body.contains(MetricNames.TICK_FAILURES + "{")
                  && body.contains(MetricNames.REST_PAGES + "{");
            });

    String metrics = get("/metrics").body();

    assertThat(metrics).doesNotContain("hunter2").doesNotContain(RECORD_MARKER);
    Map<String, Set<String>> allowed =
        Map.of(
            "store",
            Set.of("inventory.hosts", "broken.feed", "api.items"),
            "source",
            Set.of("inventory.hosts", "broken.feed", "api.items", "logs.follow"),
            "topic",
            Set.of(
                "inventory-hosts_land",
                "broken-feed_land",
                "api-items_land",
                "logs_land",
                "dfe_fetcher_dlq"),
            // A tail's file, by its path: a path the operator configured, no record content.
            "file",
            Set.of(workspace.directory().resolve("data/logs/app.log").toString()),
            "kind",
            Set.of("rename", "truncate", "deleted"),
            "status_class",
            Set.of("2xx", "3xx", "4xx", "5xx", "error"),
            "status",
            Set.of("complete", "aborted"),
            "reason",
            Set.of(
                "oversize",
                "refused",
                "bad_file",
                "not_regular",
                "outside_base",
                "unreadable",
                "vanished",
                "not_settled"));
    Pattern label = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    int checked = 0;
    for (String line : sampleLines(metrics)) {
      int open = line.indexOf('{');
      // The JVM instrumentation's labels (pool, area, gc, ...) name the JVM's parts, not ours.
      if (open < 0 || !line.startsWith("dfe_fetcher_")) {
        continue;
      }
      Matcher labels = label.matcher(line.substring(open, line.indexOf('}')));
      while (labels.find()) {
        if (labels.group(1).equals("le")) {
          continue;
        }
        assertThat(allowed).as(line).containsKey(labels.group(1));
        assertThat(allowed.get(labels.group(1))).as(line).contains(labels.group(2));
        checked++;
      }
    }
    assertThat(checked).as("labels checked").isGreaterThan(10);
  }

  @Test
  void everyUnitsCounterSeriesAreServedAtZeroBeforeItsFirstTick() throws Exception {
    FetcherConfig config = workspace.load(workspace.config(ONE_CONNECTION));
    service = FetcherService.create(config, Clock.systemUTC());
    health = HealthServer.serve(service, config.metrics());

    List<String> lines = sampleLines(get("/metrics").body());

    assertThat(lines)
        .contains(
            MetricNames.TICK_FAILURES + "{source=\"inventory.hosts\"} 0.0",
            MetricNames.RECORDS + "{source=\"inventory.hosts\",topic=\"inventory-hosts_land\"} 0.0",
            MetricNames.RECORDS_FILTERED + "{source=\"inventory.hosts\"} 0.0",
            MetricNames.FILTER_ERRORS + "{source=\"inventory.hosts\"} 0.0",
            MetricNames.CHECKPOINT_COMMITS + "{source=\"inventory.hosts\"} 0.0",
            MetricNames.SNAPSHOTS + "{status=\"complete\",store=\"inventory.hosts\"} 0.0",
            MetricNames.SNAPSHOTS + "{status=\"aborted\",store=\"inventory.hosts\"} 0.0",
            MetricNames.SNAPSHOT_ROWS + "{store=\"inventory.hosts\"} 0.0",
            MetricNames.DLQ + "{reason=\"oversize\",source=\"inventory.hosts\"} 0.0");
  }

  @Test
  void statusServesEachUnitsLastTickOutcomeNextTickAndCheckpointAsJson() throws Exception {
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));
    start(ONE_CONNECTION);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> get("/status").body().contains("\"next_tick\":\"20"));

    HttpResponse<String> status = get("/status");

    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    JsonNode unit = new ObjectMapper().readTree(status.body()).path("units").get(0);
    assertThat(unit.path("unit").asText()).isEqualTo("inventory.hosts");
    assertThat(unit.path("last_outcome").asText()).isEqualTo("succeeded");
    assertThat(unit.path("last_success").asText()).isEqualTo(unit.path("last_tick_end").asText());
    assertThat(unit.path("last_failure").isNull()).isTrue();
    assertThat(unit.path("running_since").isNull()).isTrue();
    assertThat(unit.path("checkpoint").path("kind").asText()).isEqualTo("file");
    assertThat(unit.path("checkpoint").path("description").asText()).contains("a.ndjson");
  }

  @Test
  void statusHoldsNoSecret() throws Exception {
    writeDataTouchingEveryMetric();
    start(everyMetric());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> get("/status").body().contains("\"last_outcome\":\"failed\""));

    assertThat(get("/status").body()).doesNotContain("hunter2").doesNotContain(RECORD_MARKER);
  }

  private void writeDataTouchingEveryMetric() {
    workspace.write(
        "data/hosts/a.ndjson",
        FetcherWorkspace.ndjson(
            "{\"id\":\"rec-marker-alpha\",\"alive\":true}",
            "{\"id\":\"rec-marker-beta\",\"alive\":false}",
            "{\"id\":\"rec-marker-gamma\",\"alive\":true,\"blob\":\"" + "x".repeat(100) + "\"}"));
    workspace.write("data/logs/app.log", "started\nlistening\n");
    workspace.write(
        "data/broken/bad.ndjson",
        FetcherWorkspace.ndjson("{\"id\":\"rec-marker-delta\"}", "{\"id\":\"rec-marker-"));
    try {
      // A dangling link is passed over (not a regular file): dfe_fetcher_files_skipped_total.
      Files.createSymbolicLink(
          workspace.directory().resolve("data/hosts/gone.ndjson"),
          workspace.directory().resolve("nowhere"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every name {@link MetricNames} declares, so a metric added there is checked here too. */
  private static List<String> metricNames() throws IllegalAccessException {
    List<String> names = new ArrayList<>();
    for (Field field : MetricNames.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }
    assertThat(names).hasSizeGreaterThanOrEqualTo(8);
    return names;
  }

  private static List<String> sampleLines(String exposition) {
    return exposition.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
  }
}
