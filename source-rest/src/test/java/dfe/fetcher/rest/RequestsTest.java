package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What is sent (methods, bodies, headers, pace), what a stalled body does, what is counted. */
class RequestsTest {

  private ApiServer server;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  @Test
  void aPostSendsItsJsonBodyWithTemplatesRenderedAndTheHeaders() throws Exception {
    server.on("/v1/search", ok("{\"hits\":[{\"id\":1}]}"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", tenant: "blue"}
            profile:
              base_url: "{{ vars.host }}/v1"
              headers: {X-Client: "dfe-{{ unit.name }}"}
              endpoints:
                - unit: hosts
                  shape: dump
                  method: POST
                  path: /search
                  headers: {X-Tenant: "{{ vars.tenant }}"}
                  body: {query: {tenant: "{{ vars.tenant }}"}, size: 100, live: true, tags: [a]}
                  rows: {decoder: json_at, at: /hits}
            """
                .formatted(server.url()));

    RecordingSink sink = RestFixture.read(connection, "hosts");

    assertThat(sink.records()).containsExactly("{\"id\":1}");
    ApiServer.Seen seen = server.requests().get(0);
    assertThat(seen.method()).isEqualTo("POST");
    assertThat(seen.body())
        .isEqualTo("{\"query\":{\"tenant\":\"blue\"},\"size\":100,\"live\":true,\"tags\":[\"a\"]}");
    assertThat(seen.header("Content-Type")).isEqualTo("application/json");
    assertThat(seen.header("X-Client")).isEqualTo("dfe-hosts");
    assertThat(seen.header("X-Tenant")).isEqualTo("blue");
  }

  @Test
  void aBodyThatStallsPastTheTimeoutFailsThePage() throws Exception {
    server.on(
        "/v1/assets",
        exchange -> {
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          out.write("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s/v1"
              endpoints:
                - {unit: assets, shape: dump, path: /assets, rows: {decoder: ndjson}, timeout_secs: 1}
            """
                .formatted(server.url()));

    RecordingSink sink = RestFixture.read(connection, "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET " + server.url() + "/v1/assets: the body stalled for timeout_secs 1");
  }

  @Test
  void theRateSpacesRequestsAcrossPagesAndTicks() throws Exception {
    server.on("/v1/assets", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s/v1"
              rate: {requests_per_sec: 4}
              endpoints:
                - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
            """
                .formatted(server.url()));

    long started = System.nanoTime();
    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      for (int tick = 0; tick < 3; tick++) {
        open.source("assets").read(Optional.empty(), new RecordingSink(), new Cancellation());
      }
    }

    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(500));
    assertThat(server.paths()).hasSize(3);
  }

  @Test
  void pagesRequestsRetriesThrottlesAndDurationsAreReportedPerUnit() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.json(429, "{}", "Retry-After", "0"),
        ApiServer.json(503, "{}"),
        ok("[{\"id\":1}]", "Link", "</v1/assets?page=2>; rel=\"next\""),
        ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s/v1"
              retry: {max_retries: 3, initial_backoff_ms: 1, max_backoff_ms: 2}
              endpoints:
                - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
                   paginate: {type: link_header}}
            """
                .formatted(server.url()));
    List<String> counted = new CopyOnWriteArrayList<>();
    List<String> observed = new CopyOnWriteArrayList<>();
    SourceMetrics recorder =
        new SourceMetrics() {
          @Override
          public void increment(String name, String source, Map<String, String> labels) {
            counted.add(name + source + labels);
          }

          @Override
          public void observeSeconds(String name, String source, double seconds) {
            observed.add(name + source);
          }
        };

    try (OpenConnection open = RestFixture.open(connection, Clock.systemUTC(), recorder)) {
      open.source("assets").read(Optional.empty(), new RecordingSink(), new Cancellation());
    }

    assertThat(counted)
        .containsExactly(
            MetricNames.REST_REQUESTS + "lab.assets{status_class=4xx}",
            MetricNames.REST_THROTTLED + "lab.assets{}",
            MetricNames.REST_RETRIES + "lab.assets{}",
            MetricNames.REST_REQUESTS + "lab.assets{status_class=5xx}",
            MetricNames.REST_RETRIES + "lab.assets{}",
            MetricNames.REST_REQUESTS + "lab.assets{status_class=2xx}",
            MetricNames.REST_PAGES + "lab.assets{}",
            MetricNames.REST_REQUESTS + "lab.assets{status_class=2xx}",
            MetricNames.REST_PAGES + "lab.assets{}");
    assertThat(observed)
        .hasSize(4)
        .allMatch(o -> o.equals(MetricNames.REST_REQUEST_DURATION + "lab.assets"));
  }
}
