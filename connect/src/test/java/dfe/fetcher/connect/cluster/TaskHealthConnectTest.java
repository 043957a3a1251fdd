package dfe.fetcher.connect.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.connect.DfeSourceConnector;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a task shows and bounds trouble on a real cluster: a record the broker refuses, a unit that
 * fails every tick, a task restarted before its unit is due, and a paused connector.
 */
class TaskHealthConnectTest {

  private static ConnectCluster cluster;
  private static HttpServer api;
  private static final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  @TempDir static Path directory;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("dfe-health", false);
    api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    api.setExecutor(Executors.newCachedThreadPool());
    api.createContext("/", TaskHealthConnectTest::answer);
    api.start();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (api != null) {
      api.stop(0);
    }
  }

  /**
   * {@code /broken} answers 500, {@code /quiet} an empty page, any other path one row. Each path's
   * requests are counted.
   */
  private static void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    boolean broken = path.equals("/broken");
    String text = broken ? "{\"error\":\"down\"}" : path.equals("/quiet") ? "[]" : "[{\"id\":1}]";
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(broken ? 500 : 200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
    exchange.close();
  }

  private static int requestsTo(String path) {
    return requests.computeIfAbsent(path, p -> new AtomicInteger()).get();
  }

  private static String restDump(String id, String path, int intervalSecs) {
    return """
        instance_id: health
        sources:
          rest:
            %s:
              topic: %s
              interval_secs: %d
              profile:
                base_url: "http://127.0.0.1:%d"
                retry: {max_retries: 0}
                endpoints:
                  - {unit: items, shape: dump, path: %s, rows: {decoder: json_array}}
        """
        .formatted(id, id, intervalSecs, api.getAddress().getPort(), path);
  }

  private static Map<String, String> connector(String yaml) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DfeSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("dfe.config", yaml);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    return config;
  }

  private static ConnectorStateInfo.TaskState failedTask(String connector) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              try {
                return cluster.connect().connectorStatus(connector).tasks().stream()
                    .anyMatch(task -> task.state().equals("FAILED"));
              } catch (RuntimeException notYet) {
                return false;
              }
            });
    return cluster.connect().connectorStatus(connector).tasks().get(0);
  }

  @Test
  void aRecordTheBrokerRefusesFailsTheTaskAndLeavesTheSnapshotWithoutAnEnd() throws Exception {
    Path files = Files.createDirectories(directory.resolve("wide"));
    String wide = "{\"id\":\"wide\",\"blob\":\"" + "x".repeat(50_000) + "\"}";
    Files.writeString(files.resolve("a.ndjson"), "{\"id\":\"a\"}\n" + wide + "\n");
    String yaml =
        """
        instance_id: wide
        sources:
          file:
            wide:
              topic: wide
              interval_secs: 3600
              units:
                - {unit: rows, row_key: /id, dump: {paths: ["%s/*.ndjson"]}}
        """
            .formatted(files);
    // The topic takes less than the oversize policy lets through (900 KiB by default).
    cluster
        .connect()
        .kafka()
        .createTopic("wide-rows_land", 1, 1, Map.of("max.message.bytes", "20000"));
    cluster.connect().configureConnector("wide", connector(yaml));

    ConnectorStateInfo.TaskState task = failedTask("wide");

    assertThat(task.trace()).contains("RecordTooLargeException");
    assertThat(cluster.statuses("wide-rows_land", false)).doesNotContain(SnapshotStatus.COMPLETE);
    cluster.connect().deleteConnector("wide");

    // The documented remedy: a max_record_bytes the topic takes makes the row a stub.
    cluster
        .connect()
        .kafka()
        .createTopic("narrow-rows_land", 1, 1, Map.of("max.message.bytes", "20000"));
    cluster.createTopics("narrow_dlq");
    String narrow =
        yaml.replace("instance_id: wide", "instance_id: narrow")
            .replace("wide:\n      topic: wide", "narrow:\n      topic: narrow")
            .replace(
                "sources:",
                "oversize: {max_record_bytes: 10000, max_dlq_bytes: 1000}\n"
                    + "dlq: {topic: narrow_dlq}\n"
                    + "sources:");
    cluster.connect().configureConnector("narrow", connector(narrow));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> cluster.statuses("narrow-rows_land", false).contains(SnapshotStatus.COMPLETE));
    Reassembler reassembler = cluster.reassembled("narrow-rows_land", false);
    String id = reassembler.reports().get(0).snapshotId();
    assertThat(reassembler.stubKeys(id)).containsExactly(Map.entry(1L, Optional.of("wide")));
    cluster.connect().deleteConnector("narrow");
  }

  @Test
  void aUnitFailingEveryTickShowsOnTheTasksBeanAndFailsTheTaskAtTheBound() throws Exception {
    cluster.createTopics("lame-items_land", "doomed-items_land");
    cluster.connect().configureConnector("lame", connector(restDump("lame", "/broken", 1)));

    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    ObjectName pattern = new ObjectName("dfe.fetcher:type=connect-task,connector=\"lame\",*");
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              Set<ObjectName> beans = jmx.queryNames(pattern, null);
              assertThat(beans).hasSize(1);
              Object failures;
              try {
                failures =
                    jmx.getAttribute(
                        beans.iterator().next(),
                        "dfe_fetcher_consecutive_tick_failures{source=\"lame.items\"}");
              } catch (AttributeNotFoundException notYet) {
                failures = 0.0;
              }
              assertThat((Double) failures).isGreaterThanOrEqualTo(2.0);
            });
    assertThat(cluster.runningTasks("lame", 1).get(0).state())
        .as("without dfe.task.max_consecutive_failures the task keeps running")
        .isEqualTo("RUNNING");
    cluster.connect().deleteConnector("lame");

    Map<String, String> doomed = connector(restDump("doomed", "/broken", 1));
    doomed.put("dfe.task.max_consecutive_failures", "3");
    cluster.connect().configureConnector("doomed", doomed);

    ConnectorStateInfo.TaskState task = failedTask("doomed");

    assertThat(task.trace())
        .contains("doomed.items failed 3 consecutive ticks")
        .contains("dfe.task.max_consecutive_failures=3")
        .contains("answered 500");
    cluster.connect().deleteConnector("doomed");
  }

  @Test
  void aRestartedTaskTicksItsUnitWhenItIsDueNotAtOnce() throws Exception {
    cluster.createTopics("hourly-items_land");
    cluster.connect().configureConnector("hourly", connector(restDump("hourly", "/hourly", 3600)));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> cluster.statuses("hourly-items_land", false).contains(SnapshotStatus.COMPLETE));
    // The tick's time reaches Connect's offsets with its records.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                cluster.connect().connectorOffsets("hourly").offsets().stream()
                    .map(ConnectorOffset::partition)
                    .anyMatch(partition -> "hourly.items".equals(partition.get("store"))));
    assertThat(requestsTo("/hourly")).isEqualTo(1);

    cluster.connect().restartConnectorAndTasks("hourly", false, true, false);
    cluster.runningTasks("hourly", 1);

    await()
        .during(Duration.ofSeconds(5))
        .atMost(Duration.ofSeconds(10))
        .until(() -> requestsTo("/hourly") == 1);
    cluster.connect().deleteConnector("hourly");
  }

  /**
   * A tail whose every window is empty: its ticks land nothing, so nothing waits for the worker.
   */
  private static String quietTail() {
    return """
        instance_id: health
        sources:
          rest:
            often:
              topic: often
              interval_secs: 1
              profile:
                base_url: "http://127.0.0.1:%d"
                retry: {max_retries: 0}
                endpoints:
                  - unit: items
                    shape: tail
                    path: /quiet
                    query: {since: "{{ window.start }}"}
                    rows: {decoder: json_array}
                    window: {format: rfc3339_millis, lookback: 1h}
        """
        .formatted(api.getAddress().getPort());
  }

  @Test
  void aPausedConnectorFetchesNothingUntilResumed() throws Exception {
    cluster.createTopics("often_land");
    cluster.connect().configureConnector("often", connector(quietTail()));
    await().atMost(Duration.ofSeconds(60)).until(() -> requestsTo("/quiet") >= 2);

    cluster.connect().pauseConnector("often");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                cluster.connect().connectorStatus("often").tasks().stream()
                    .allMatch(task -> task.state().equals("PAUSED")));
    // A tick that had begun when the pause came may still finish: count from after it.
    AtomicInteger seen = new AtomicInteger(requestsTo("/quiet"));
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> seen.getAndSet(requestsTo("/quiet")) == requestsTo("/quiet"));
    int paused = requestsTo("/quiet");
    await()
        .during(Duration.ofSeconds(5))
        .atMost(Duration.ofSeconds(10))
        .until(() -> requestsTo("/quiet") == paused);

    cluster.connect().resumeConnector("often");
    await().atMost(Duration.ofSeconds(30)).until(() -> requestsTo("/quiet") > paused);
    cluster.connect().deleteConnector("often");
  }
}
