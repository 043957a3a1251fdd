package dfe.fetcher.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.app.cli.DfeFetcher;
import dfe.fetcher.app.metrics.ExposedFamilies.Family;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.runtime.metrics.MetricManifest;
import dfe.fetcher.snapshots.apply.ApplyMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfe-fetcher metrics-manifest} against what a running service serves: a fetcher with a file
 * dump (a filter, an oversize row, an unsettled file), a file tail, a PostgreSQL dump and tail, and
 * REST dumps whose API answers 429 once, reports its quota and links to another origin, so every
 * family moves; each served family must be in the manifest with its type and labels, and each
 * family the manifest says {@code run} serves must be served.
 */
class MetricsManifestTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> JVM_FROM_THE_START =
      Set.of(
          "jvm_memory_used_bytes",
          "jvm_threads_current",
          "jvm_runtime_info",
          "process_cpu_seconds_total",
          "process_start_time_seconds");

  @TempDir Path directory;

  private Process fetcher;
  private HttpServer api;
  private String table;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @AfterEach
  void stop() throws Exception {
    if (fetcher != null) {
      fetcher.destroy();
      if (!fetcher.waitFor(10, TimeUnit.SECONDS)) {
        fetcher.destroyForcibly();
      }
    }
    if (api != null) {
      api.stop(0);
    }
    if (table != null) {
      sql("DROP TABLE IF EXISTS " + table);
    }
  }

  @Test
  void theManifestNamesEveryMetricNameOnce() throws Exception {
    Set<String> declared = new TreeSet<>();
    for (Class<?> names : List.of(MetricNames.class, MetricNames.Apply.class)) {
      for (Field field : names.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
          declared.add((String) field.get(null));
        }
      }
    }
    declared.add(ApplyMetrics.RETRIES);
    List<String> listed = new ArrayList<>();
    MetricManifest.SERVICE.forEach(series -> listed.add(series.name()));
    MetricManifest.APPLY.forEach(series -> listed.add(series.name()));
    assertThat(listed).doesNotHaveDuplicates();
    assertThat(new TreeSet<>(listed))
        .as("a name added to MetricNames needs its line in MetricManifest")
        .isEqualTo(declared);
  }

  @Test
  void theTableListsEverySeriesWithItsTypeAndLabels() {
    String table = manifest("metrics-manifest");
    assertThat(table.lines().findFirst().orElseThrow())
        .startsWith("SERIES")
        .contains("TYPE", "LABELS", "SERVED BY", "MEANING");
    assertThat(table)
        .containsPattern("dfe_fetcher_checkpoint_age_seconds +gauge +source +run +seconds since")
        .containsPattern("dfe_fetcher_snapshots_total +counter +store,status +run ")
        .containsPattern("dfe_fetcher_ready +gauge +- +run ")
        .containsPattern("jvm_memory_used_bytes +gauge +area +run ")
        .containsPattern("process_cpu_seconds_total +counter +- +run ")
        .containsPattern("dfe_fetcher_apply_rows_total +counter +table +snapshots apply ");
  }

  @Test
  void whatSnapshotsApplyServesIsInTheManifest() throws Exception {
    Map<String, JsonNode> manifest = manifestByName();
    try (ApplyMetrics metrics = new ApplyMetrics("public.stock")) {
      int port = metrics.serve(new InetSocketAddress("127.0.0.1", 0));
      metrics.retried("database");
      Map<String, Family> served = ExposedFamilies.parse(get(port));
      assertThat(served).containsKey(ApplyMetrics.RETRIES);
      for (Family family : served.values()) {
        assertInManifest(manifest, family, "snapshots apply");
      }
    }
  }

  @Test
  void everyFamilyARunServesIsInTheManifestAndEveryOneItListsForRunIsServed() throws Exception {
    table = "manifest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    sql(
        "CREATE TABLE " + table + " (id bigint PRIMARY KEY, note text)",
        "INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    int apiPort = startApi();
    int port = freePort();
    Path data = Files.createDirectories(directory.resolve("data"));
    Files.writeString(
        data.resolve("hosts.ndjson"),
        "{\"id\":1,\"alive\":true}\n{\"id\":2,\"alive\":false}\n{\"id\":3}\n"
            + "{\"id\":4,\"alive\":true,\"pad\":\""
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
            instance_id: manifest
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
              db:
                crm:
                  url: "jdbc:postgresql://127.0.0.1:5432/test"
                  user: postgres
                  topic: crm
                  stores:
                    - {unit: notes, shape: dump, query: "SELECT * FROM %s ORDER BY id"}
                    - {unit: events, shape: tail, query: "SELECT id, note FROM %s", key: [id]}
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
                      - unit: linked
                        shape: dump
                        path: /linked
                        rows: {decoder: json_array}
                        paginate: {type: link_header}
            """
                .formatted(port, table, table, apiPort));
    startFetcher(config);

    Map<String, JsonNode> manifest = manifestByName();
    List<String> forRun = new ArrayList<>();
    manifest.forEach(
        (name, entry) -> {
          // The fetcher's own families, all of them; of the JVM's, a few that are there from the
          // start (some, such as a memory pool's allocations, wait for a collection).
          if (entry.path("served_by").asText().equals("run")
              && (name.startsWith("dfe_fetcher_") || JVM_FROM_THE_START.contains(name))) {
            forRun.add(name);
          }
        });
    // A rotation by rename, once the tail has read the file, so the rotations family moves too.
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> get(port).contains(MetricNames.TAIL_LINES + "{"));
    Files.move(logs.resolve("app.log"), logs.resolve("app.log.1"));
    Files.writeString(logs.resolve("app.log"), "restarted\n");
    Map<String, Family> served = new LinkedHashMap<>();
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              served.clear();
              served.putAll(ExposedFamilies.parse(get(port)));
              assertThat(served.keySet()).as("families served so far").containsAll(forRun);
              assertThat(served.get(MetricNames.LAST_SUCCESS).labels()).contains("source");
            });

    for (Family family : served.values()) {
      assertInManifest(manifest, family, "run");
    }
    assertThat(forRun).hasSizeGreaterThan(JVM_FROM_THE_START.size() + 15);
  }

  private static void assertInManifest(Map<String, JsonNode> manifest, Family family, String by) {
    JsonNode entry = manifest.get(family.name());
    assertThat(entry).as("%s is served but not in the manifest", family.name()).isNotNull();
    assertThat(entry.path("type").asText())
        .as("type of %s", family.name())
        .isEqualTo(family.type());
    Set<String> labels = new TreeSet<>();
    entry.path("labels").forEach(label -> labels.add(label.asText()));
    // The JVM instrumentation's families are listed from this JVM: one with no sample here yet (a
    // memory pool's allocations, before the first collection) is listed without its labels.
    boolean unsampledJvmFamily = !family.name().startsWith("dfe_fetcher_") && labels.isEmpty();
    if (!unsampledJvmFamily) {
      assertThat(labels)
          .as("labels of %s", family.name())
          .isEqualTo(new TreeSet<>(family.labels()));
    }
    assertThat(entry.path("served_by").asText()).as("served by").isEqualTo(by);
    assertThat(entry.path("meaning").asText()).as("meaning of %s", family.name()).isNotBlank();
  }

  private static Map<String, JsonNode> manifestByName() throws IOException {
    Map<String, JsonNode> byName = new LinkedHashMap<>();
    for (JsonNode entry : JSON.readTree(manifest("metrics-manifest", "--format", "json"))) {
      assertThat(byName.put(entry.path("name").asText(), entry))
          .as("listed once: %s", entry.path("name").asText())
          .isNull();
    }
    return byName;
  }

  private static String manifest(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        DfeFetcher.run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  private String get(int port) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private void startFetcher(Path config) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "dfe.fetcher.app.cli.DfeFetcher",
                "run",
                "--config",
                config.toString())
            .directory(directory.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("fetcher.log").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    fetcher = builder.start();
  }

  /**
   * A REST API whose first answer is 429, then a JSON array of two records with the quota left, its
   * limit and its reset; and a listing whose next page is on another origin.
   */
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
    // Its next page is on another origin (localhost, not 127.0.0.1): asked for without credentials.
    api.createContext(
        "/linked",
        exchange -> {
          // Each page its own row: the same rows again would be the listing going round.
          boolean first = exchange.getRequestURI().getQuery() == null;
          byte[] body =
              (first ? "[{\"id\":\"c\"}]" : "[{\"id\":\"d\"}]").getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          if (first) {
            int port = api.getAddress().getPort();
            exchange
                .getResponseHeaders()
                .set("Link", "<http://localhost:" + port + "/linked?page=2>; rel=\"next\"");
          }
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    api.start();
    return api.getAddress().getPort();
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
