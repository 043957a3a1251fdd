package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A profile's {@code quota.headers}: the response headers it names are read from every answer into
 * the unit's quota gauges, each the header's number exactly (a reset in epoch seconds counted down
 * on the connection's clock), and a name that cannot be one, or reads as a credential, is refused
 * at load.
 */
class QuotaHeadersTest {

  /**
   * The connection's clock: a day behind the machine's, so a reset read on the wrong clock shows.
   */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

  @AutoClose private final ApiServer server = ApiServer.started();
  private final MutableClock clock = new MutableClock(NOW);

  private RestConnection withQuota(String headers) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 2, initial_backoff_ms: 1, max_backoff_ms: 5}
          quota:
            headers: %s
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               paginate: {type: link_header}}
            - {unit: sites, shape: dump, path: /sites, rows: {decoder: json_array}}
        """
            .formatted(server.url(), headers));
  }

  private RecordingMetrics read(RestConnection connection, String... units) throws Exception {
    RecordingMetrics metrics = new RecordingMetrics();
    try (OpenConnection open = RestFixture.open(connection, clock, metrics)) {
      for (String unit : units) {
        open.source(unit).read(Optional.empty(), new RecordingSink(), new Cancellation());
      }
    }
    return metrics;
  }

  @Test
  void eachGaugeIsTheNamedHeadersValueOfTheUnitsLastAnswer() throws Exception {
    server.on(
        "/assets",
        ok(
            "[{\"id\":1}]",
            "X-Usage-Left",
            "4321",
            "X-Usage-Limit",
            "5000",
            "X-Usage-Reset",
            "42",
            "X-RateLimit-Remaining",
            "7"));
    server.on("/sites", ok("[]", "X-Usage-Left", "4320", "X-Usage-Limit", "5000"));

    RecordingMetrics metrics =
        read(
            withQuota("{remaining: X-Usage-Left, limit: X-Usage-Limit, reset: X-Usage-Reset}"),
            "assets",
            "sites");

    // The named remaining header, not X-RateLimit-Remaining, feeds the remaining gauge.
    assertThat(metrics.gauges)
        .containsOnly(
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.assets}", 4321.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.assets}", 5000.0),
            Map.entry(MetricNames.API_QUOTA_RESET_SECONDS + "{lab.assets}", 42.0),
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.sites}", 4320.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.sites}", 5000.0));
  }

  @Test
  void anErrorAnswerFeedsTheGaugesAndAnEpochResetCountsDownOnTheConnectionsClock()
      throws Exception {
    long resetAt = NOW.plusSeconds(90).getEpochSecond();
    server.on(
        "/assets",
        json(
            429,
            "{\"error\":\"slow down\"}",
            "Retry-After",
            "0",
            "X-Usage-Left",
            "0",
            "X-Usage-Limit",
            "600",
            "X-Usage-Reset",
            Long.toString(resetAt)),
        ok(
            "[{\"id\":1}]",
            "X-Usage-Left",
            "599",
            "X-Usage-Reset",
            "soon",
            "Link",
            "<" + server.url() + "/assets?page=2>; rel=\"next\""),
        ok("[]", "X-Usage-Left", "598"));

    RecordingMetrics metrics =
        read(
            withQuota("{remaining: X-Usage-Left, limit: X-Usage-Limit, reset: X-Usage-Reset}"),
            "assets");

    assertThat(server.paths()).containsExactly("/assets", "/assets", "/assets?page=2");
    // The limit only the 429 said, the reset only it said as a number (90 s ahead of the
    // connection's clock; "soon" leaves it), the remaining as the last page said.
    assertThat(metrics.gauges)
        .containsOnly(
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.assets}", 598.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.assets}", 600.0),
            Map.entry(MetricNames.API_QUOTA_RESET_SECONDS + "{lab.assets}", 90.0));
  }

  @Test
  void withoutARemainingHeaderNamedTheRemainingGaugeComesFromTheUsualHeaders() throws Exception {
    server.on("/assets", ok("[]", "X-RateLimit-Remaining", "12", "X-Usage-Limit", "50"));

    RecordingMetrics metrics = read(withQuota("{limit: X-Usage-Limit}"), "assets");

    assertThat(metrics.gauges)
        .containsOnly(
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.assets}", 12.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.assets}", 50.0));
  }

  @Test
  void theDatadogProfileReadsDatadogsRateLimitHeaders() throws Exception {
    server.on(
        "/api/v2/audit/events",
        ok(
            "{\"data\":[{\"id\":\"e1\"}],\"meta\":{\"page\":{}}}",
            "X-RateLimit-Limit",
            "300",
            "X-RateLimit-Period",
            "60",
            "X-RateLimit-Remaining",
            "299",
            "X-RateLimit-Reset",
            "37",
            "X-RateLimit-Name",
            "audit_logs"));
    RestConnection datadog =
        RestFixture.connection(
            """
            topic: datadog
            profile: datadog
            vars: {api_url: "%s"}
            auth: {mode: headers, headers: {DD-API-KEY: env:DD_API_KEY, DD-APPLICATION-KEY: env:DD_APP_KEY}}
            """
                .formatted(server.url()),
            Map.of("DD_API_KEY", "dd-api", "DD_APP_KEY", "dd-app"));

    RecordingMetrics metrics = read(datadog, "audit_events");

    assertThat(metrics.gauges)
        .containsOnly(
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.audit_events}", 299.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.audit_events}", 300.0),
            Map.entry(MetricNames.API_QUOTA_RESET_SECONDS + "{lab.audit_events}", 37.0));
  }

  @Test
  void theRunZeroProfileReadsRunZerosDailyUsageHeaders() throws Exception {
    server.on(
        "/api/v1.0/export/org/sites.jsonl",
        ApiServer.send(
            200,
            "application/x-ndjson",
            "{\"id\":\"s1\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "X-API-Usage-Total",
            "81234",
            "X-API-Usage-Today",
            "17",
            "X-API-Usage-Limit",
            "1000",
            "X-API-Usage-Remaining",
            "983"));
    RestConnection runzero =
        RestFixture.connection(
            """
            topic: runzero
            profile: runzero
            vars: {console_url: "%s"}
            auth: {mode: bearer, token: env:RUNZERO_TOKEN}
            """
                .formatted(server.url()),
            Map.of("RUNZERO_TOKEN", "ET-export"));

    RecordingMetrics metrics = read(runzero, "sites");

    assertThat(metrics.gauges)
        .containsOnly(
            Map.entry(MetricNames.API_QUOTA_REMAINING + "{lab.sites}", 983.0),
            Map.entry(MetricNames.API_QUOTA_LIMIT + "{lab.sites}", 1000.0));
  }

  @Test
  void aNameThatIsNoHeaderOrReadsAsACredentialIsRefusedAtLoad() {
    String yaml =
        """
        topic: lab
        profile:
          base_url: "https://api.example.com"
          quota:
            headers: {remaining: "X Left", limit: X-Api-Key, reset: X-RateLimit-Reset, used: X-Used}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
        """;

    assertThat(RestFixture.problems(yaml))
        .containsExactly(
            "config.yaml:5:26: sources.rest.lab.profile.quota.headers.remaining: 'X Left' is not a"
                + " header name",
            "config.yaml:5:43: sources.rest.lab.profile.quota.headers.limit: 'X-Api-Key' reads as"
                + " a header that carries a credential; a quota gauge reads a header that counts"
                + " requests, e.g. X-RateLimit-Remaining",
            "config.yaml:5:80: sources.rest.lab.profile.quota.headers.used: unknown key; allowed"
                + " keys: remaining, limit, reset");
  }

  @Test
  void aQuotaThatNamesNoHeaderIsRefusedAtLoad() {
    String yaml =
        """
        topic: lab
        profile:
          base_url: "https://api.example.com"
          quota: {headers: {}}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
        """;

    assertThat(RestFixture.problems(yaml))
        .containsExactly(
            "config.yaml:4:20: sources.rest.lab.profile.quota.headers: names no header; set"
                + " remaining, limit or reset, e.g. remaining: X-RateLimit-Remaining");
  }
}
