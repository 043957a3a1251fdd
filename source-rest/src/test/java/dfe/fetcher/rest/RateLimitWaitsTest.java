package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rate-limit headers: a throttle (a 429, GitHub's 403 with its quota spent) waits for {@code
 * Retry-After} or the quota's reset, measured on the connection's clock, instead of failing the
 * tick; a wait beyond {@code max_retry_wait_secs} fails it at once, and headers that make no sense
 * fall back to the back-off. The quota left is a gauge.
 */
class RateLimitWaitsTest {

  /**
   * The connection's clock: a day behind the machine's, so a reset read on the wrong clock shows.
   */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

  private ApiServer server;
  private CapturedLogs logs;
  private final MutableClock clock = new MutableClock(NOW);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs = new CapturedLogs();
  }

  @AfterEach
  void stop() {
    logs.close();
    server.close();
  }

  private RestConnection dump(int maxRetries) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: api_key, key: env:KEY, query_param: api_key}
        profile:
          base_url: "%s"
          retry: {max_retries: %d, initial_backoff_ms: 1, max_backoff_ms: 5, max_retry_wait_secs: 120}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, query: {per_page: "100"},
               rows: {decoder: json_array}, timeout_secs: 5}
        """
            .formatted(server.url(), maxRetries),
        Map.of("KEY", "key-SECRET-7"));
  }

  private RecordingSink read(RestConnection connection, SourceMetrics metrics) throws Exception {
    RecordingSink sink = new RecordingSink();
    try (OpenConnection open = RestFixture.open(connection, clock, metrics)) {
      open.source("assets").read(Optional.empty(), sink, new Cancellation());
    }
    return sink;
  }

  private RecordingSink read(RestConnection connection) throws Exception {
    return read(connection, SourceMetrics.NONE);
  }

  private static String epoch(Instant at) {
    return Long.toString(at.getEpochSecond());
  }

  /** The waits of the retries logged, as {@code wait_ms=N}. */
  private List<Long> retryWaits() {
    return logs.texts().stream()
        .filter(m -> m.startsWith("event=rest_request_retried"))
        .map(m -> Long.parseLong(m.substring(m.indexOf("wait_ms=") + "wait_ms=".length())))
        .toList();
  }

  @Test
  void githubs403WithItsQuotaSpentWaitsUntilTheResetOnTheConnectionsClock() throws Exception {
    server.on(
        "/assets",
        json(
            403,
            "{\"message\":\"API rate limit exceeded\"}",
            "x-ratelimit-remaining",
            "0",
            "x-ratelimit-reset",
            epoch(NOW.plusSeconds(1))),
        ok("[{\"id\":1}]", "x-ratelimit-remaining", "4999"));

    RecordingSink sink = read(dump(3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).hasSize(2);
    assertThat(retryWaits()).containsExactly(1000L);
  }

  @Test
  void oktas429WaitsUntilItsXRateLimitReset() throws Exception {
    server.on(
        "/assets",
        json(
            429,
            "{}",
            "X-Rate-Limit-Remaining",
            "0",
            "X-Rate-Limit-Reset",
            epoch(NOW.plusSeconds(1))),
        ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(retryWaits()).containsExactly(1000L);
  }

  @Test
  void aResetBeyondMaxRetryWaitFailsAtOnceNamingTheUnitAndThePathButNoSecret() throws Exception {
    server.on(
        "/assets",
        json(
            403,
            "{}",
            "X-RateLimit-Remaining",
            "0",
            "X-RateLimit-Reset",
            epoch(NOW.plus(Duration.ofHours(2)))));

    RecordingSink sink = read(dump(3));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets?per_page=100 answered 403 asking to wait 7200s"
                + " (X-RateLimit-Reset), beyond retry.max_retry_wait_secs 120");
    assertThat(server.paths()).hasSize(1);
    assertThat(server.requests().get(0).pathAndQuery()).contains("api_key=key-SECRET-7");
    assertThat(logs.texts()).noneMatch(line -> line.contains("key-SECRET-7"));
  }

  @Test
  void aResetAlreadyPastFallsBackToTheBackOff() throws Exception {
    server.on(
        "/assets",
        json(
            403,
            "{}",
            "X-RateLimit-Remaining",
            "0",
            "X-RateLimit-Reset",
            epoch(NOW.minusSeconds(30))),
        ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(retryWaits()).singleElement().satisfies(wait -> assertThat(wait).isBetween(0L, 5L));
  }

  @Test
  void aRetryAfterThatIsNeitherSecondsNorADateFallsBackToTheBackOff() throws Exception {
    server.on(
        "/assets",
        json(403, "{}", "X-RateLimit-Remaining", "0", "Retry-After", "soon, maybe"),
        json(429, "{}", "Retry-After", "-5"),
        ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump(3));

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(retryWaits()).hasSize(2).allSatisfy(wait -> assertThat(wait).isBetween(0L, 5L));
  }

  @Test
  void aQuotaNotSpentDoesNotMakeA403AThrottleButIsStillTheGauge() throws Exception {
    server.on(
        "/assets",
        json(403, "{}", "X-RateLimit-Remaining", "12", "X-RateLimit-Reset", epoch(NOW)),
        ok("[{\"id\":1}]"));
    RecordingMetrics metrics = new RecordingMetrics();

    RecordingSink sink = read(dump(3), metrics);

    assertThat(sink.abortReason().orElseThrow())
        .endsWith(" answered 403 (check the instance's auth); not retried");
    assertThat(server.paths()).hasSize(1);
    assertThat(metrics.gauges)
        .containsExactly(Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.assets}", 12.0));
  }

  @Test
  void a429StormIsTriedMaxRetriesTimesThenFailsTheDumpWithNoEnd() throws Exception {
    server.on(
        "/assets",
        json(429, "{}", "Retry-After", "0"),
        json(403, "{}", "X-RateLimit-Remaining", "0", "Retry-After", "0"));

    RecordingSink sink = read(dump(4));

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(" answered 403 (throttled); gave up after 4 retries");
    assertThat(server.paths()).hasSize(5);
  }

  @Test
  void aStopDuringARateLimitWaitEndsTheReadAtOnce() throws Exception {
    server.on(
        "/assets",
        json(
            403,
            "{}",
            "x-ratelimit-remaining",
            "0",
            "x-ratelimit-reset",
            epoch(NOW.plusSeconds(100))));
    Cancellation cancellation = new Cancellation();

    try (OpenConnection open = RestFixture.open(dump(3), clock, SourceMetrics.NONE)) {
      CompletableFuture<Throwable> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  open.source("assets").read(Optional.empty(), new RecordingSink(), cancellation);
                  return null;
                } catch (Exception e) {
                  return e;
                }
              });
      await().atMost(Duration.ofSeconds(10)).until(() -> retryWaits().contains(100_000L));
      cancellation.cancel("stopping");

      assertThat(read.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }
    assertThat(server.paths()).hasSize(1);
  }

  @Test
  void aPageSayingTheQuotaIsSpentMakesTheNextRequestWaitForTheResetInsteadOfBeingRefused()
      throws Exception {
    ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();
    server.on(
        "/assets",
        exchange -> {
          arrivals.add(System.nanoTime());
          ok(
                  "[{\"id\":1}]",
                  "X-RateLimit-Remaining",
                  "0",
                  "X-RateLimit-Reset",
                  epoch(NOW.plusSeconds(1)),
                  "Link",
                  next("/p2"))
              .answer(exchange);
        });
    server.on(
        "/p2",
        exchange -> {
          arrivals.add(System.nanoTime());
          ok("[{\"id\":2}]", "X-RateLimit-Remaining", "4999").answer(exchange);
        });

    RecordingSink sink = read(pagedDump());

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/p2");
    assertThat(logs.texts())
        .anyMatch(
            line ->
                line.startsWith("event=rest_quota_wait unit=lab.assets")
                    && line.endsWith("header=X-RateLimit-Reset wait_ms=1000"));
    List<Long> at = List.copyOf(arrivals);
    assertThat(TimeUnit.NANOSECONDS.toMillis(at.get(1) - at.get(0))).isGreaterThanOrEqualTo(900);
  }

  @Test
  void aSpentQuotaResettingBeyondMaxRetryWaitFailsTheNextRequestBeforeItIsSent() throws Exception {
    server.on(
        "/assets",
        ok(
            "[{\"id\":1}]",
            "X-Rate-Limit-Remaining",
            "0",
            "X-Rate-Limit-Reset",
            epoch(NOW.plus(Duration.ofHours(1))),
            "Link",
            next("/p2")));
    server.on("/p2", ok("[]"));

    RecordingSink sink = read(pagedDump());

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/p2 not sent: the API's last answer said its quota is spent until"
                + " 2026-12-01T09:00:00Z (X-Rate-Limit-Reset), 3600s away, beyond"
                + " retry.max_retry_wait_secs 120");
    assertThat(server.paths()).containsExactly("/assets");
  }

  private RestConnection pagedDump() {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 3, initial_backoff_ms: 1, max_backoff_ms: 5, max_retry_wait_secs: 120}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               paginate: {type: link_header}}
        """
            .formatted(server.url()));
  }

  @Test
  void theQuotaLeftIsAGaugeOfTheUnitsLastAnswerThatSaidIt() throws Exception {
    server.on("/assets", ok("[{\"id\":1}]", "X-RateLimit-Remaining", "4999", "Link", next("/p2")));
    server.on("/p2", ok("[]", "X-Rate-Limit-Remaining", "4998", "Link", next("/p3")));
    server.on("/p3", ok("[]", "X-RateLimit-Remaining", "lots"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              endpoints:
                - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
                   paginate: {type: link_header}}
            """
                .formatted(server.url()));
    RecordingMetrics metrics = new RecordingMetrics();

    RecordingSink sink = read(connection, metrics);

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/p2", "/p3");
    assertThat(metrics.gauges)
        .containsExactly(Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.assets}", 4998.0));
  }

  private String next(String path) {
    return "<" + server.url() + path + ">; rel=\"next\"";
  }
}
