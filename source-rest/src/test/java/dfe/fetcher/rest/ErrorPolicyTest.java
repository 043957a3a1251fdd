package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code errors}: which statuses are tried again, never tried again, ignored as "nothing here", or
 * throttles signalled in the body, and whether a POST is tried again; the profile's with an
 * endpoint's over it.
 */
class ErrorPolicyTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A dump of /assets with {@code profileErrors} on the profile and {@code endpoint} keys. */
  private RestConnection dump(String profileErrors, String endpoint) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 3, initial_backoff_ms: 1, max_backoff_ms: 5}
          errors: %s
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               error_at: /message, paginate: {type: link_header}%s}
            - {unit: others, shape: dump, path: /others, rows: {decoder: json_array}}
        """
            .formatted(server.url(), profileErrors, endpoint));
  }

  private static RecordingSink read(RestConnection connection, String unit) throws Exception {
    return RestFixture.read(connection, unit);
  }

  @Test
  void aStatusOfRetryOnIsTriedAgain() throws Exception {
    server.on("/assets", json(409, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump("{retry_on: [409, 503]}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/assets");
  }

  @Test
  void retryOnReplacesTheDefaultStatuses() throws Exception {
    server.on("/assets", json(502, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump("{retry_on: [503]}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue("lab.assets: GET " + server.url() + "/assets answered 502; not retried");
    assertThat(server.paths()).containsExactly("/assets");
  }

  @Test
  void aThrottleIsWaitedOutWhateverRetryOnSays() throws Exception {
    server.on("/assets", json(429, "{}", "Retry-After", "0"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump("{retry_on: [503]}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/assets");
  }

  @Test
  void aStatusOfNeverRetryIsNotTriedAgainThoughTheDefaultsWould() throws Exception {
    server.on("/assets", json(503, "{\"message\":\"maintenance\"}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump("{never_retry: [503]}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets answered 503: \"maintenance\"; not retried (errors.never_retry)");
    assertThat(server.paths()).containsExactly("/assets");
  }

  @Test
  void neverRetryHoldsForAThrottleToo() throws Exception {
    server.on("/assets", json(429, "{}", "Retry-After", "0"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(dump("{never_retry: [429]}", ""), "assets");

    assertThat(sink.abortReason().orElseThrow())
        .endsWith("/assets answered 429 (throttled); not retried (errors.never_retry)");
    assertThat(server.paths()).containsExactly("/assets");
  }

  @Test
  void anIgnoredStatusOnTheFirstPageEndsTheDumpWithNoRowsAndNoOtherStatusIsIgnored()
      throws Exception {
    server.on("/assets", json(404, "{\"message\":\"no such project\"}"));
    server.on("/others", json(410, "{\"message\":\"gone\"}"));
    RestConnection connection = dump("{ignore_status: [404]}", "");

    RecordingSink assets = read(connection, "assets");
    RecordingSink others = read(connection, "others");

    assertThat(assets.shape()).containsExactly("begin", "end");
    assertThat(others.shape()).containsExactly("begin", "abort");
    assertThat(others.abortReason())
        .hasValue("lab.others: GET " + server.url() + "/others answered 410; not retried");
    assertThat(server.paths()).containsExactly("/assets", "/others");
  }

  @Test
  void anIgnoredStatusOnALaterPageFailsTheDumpRatherThanCutItShort() throws Exception {
    server.on(
        "/assets", ok("[{\"id\":1}]", "Link", "<" + server.url() + "/assets/2>; rel=\"next\""));
    server.on("/assets/2", json(404, "{}"));

    RecordingSink sink = read(dump("{ignore_status: [404]}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets/2 answered 404 on page 2: errors.ignore_status makes only a listing's"
                + " first page empty; a later page answering it would cut the listing short, so"
                + " it fails");
  }

  @Test
  void anEndpointsErrorsOverrideTheProfilesKeyByKey() throws Exception {
    server.on("/assets", json(503, "{}"), ok("[{\"id\":1}]"));
    server.on("/others", json(503, "{}"), ok("[{\"id\":1}]"));
    RestConnection connection =
        dump("{never_retry: [503], ignore_status: [404]}", ", errors: {never_retry: []}");

    RecordingSink assets = read(connection, "assets");
    RecordingSink others = read(connection, "others");

    assertThat(assets.shape()).containsExactly("begin", "row", "end");
    assertThat(others.shape()).containsExactly("begin", "abort");
    assertThat(server.paths()).containsExactly("/assets", "/assets", "/others");
    assertThat(connection.endpoints().get(0).errors().ignoreStatus()).containsExactly(404);
  }

  @Test
  void aThrottleInTheBodyIsWaitedOutAsA429() throws Exception {
    server.on(
        "/assets",
        json(
            400,
            "{\"__type\":\"com.amazonaws#ThrottlingException\",\"message\":\"Rate exceeded\"}"),
        ok("[{\"id\":1}]"));
    RestConnection connection =
        dump(
            "{throttle_when: 'status == 400 && body.__type.endsWith(\"ThrottlingException\")'}",
            "");
    RecordingMetrics metrics = new RecordingMetrics();

    RecordingSink sink = new RecordingSink();
    try (OpenConnection open = RestFixture.open(connection, Clock.systemUTC(), metrics)) {
      open.source("assets").read(Optional.empty(), sink, new Cancellation());
    }

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets", "/assets");
    assertThat(metrics.count(MetricNames.REST_THROTTLED, "lab.assets")).isEqualTo(1);
  }

  @Test
  void aBodyThrottleWhenDoesNotHoldForFailsAsItsStatusDoes() throws Exception {
    server.on(
        "/assets",
        json(400, "{\"__type\":\"ValidationException\",\"message\":\"bad filter\"}"),
        ok("[{\"id\":1}]"));

    RecordingSink sink =
        read(
            dump(
                "{throttle_when: 'status == 400 && body.__type.endsWith(\"ThrottlingException\")'}",
                ""),
            "assets");

    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets answered 400: \"bad filter\"; not retried");
    assertThat(server.paths()).containsExactly("/assets");
  }

  @Test
  void aThrottleWhenReadingAFieldABodyLacksDoesNotHold() throws Exception {
    server.on("/assets", ApiServer.send(400, "text/plain", "busy".getBytes()), ok("[]"));

    RecordingSink sink =
        read(dump("{throttle_when: 'body.__type == \"Throttled\"'}", ""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(server.paths()).containsExactly("/assets");
  }

  private RestConnection search(String errors) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 3, initial_backoff_ms: 1, max_backoff_ms: 5}
          endpoints:
            - {unit: assets, shape: dump, method: POST, path: /search, body: {query: "*"},
               rows: {decoder: json_array}%s}
        """
            .formatted(server.url(), errors));
  }

  @Test
  void aPostIsNotTriedAgainAfterA5xx() throws Exception {
    server.on("/search", json(503, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(search(""), "assets");

    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: POST "
                + server.url()
                + "/search answered 503; not retried: a POST is tried again only with"
                + " errors.retry_non_idempotent: true");
    assertThat(server.paths()).containsExactly("/search");
  }

  @Test
  void aPostIsTriedAgainWithRetryNonIdempotent() throws Exception {
    server.on("/search", json(503, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(search(", errors: {retry_non_idempotent: true}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.requests())
        .hasSize(2)
        .allSatisfy(seen -> assertThat(seen.body()).isEqualTo("{\"query\":\"*\"}"));
  }

  @Test
  void aPostIsTriedAgainAfterAThrottleButNotAfterA5xx() throws Exception {
    server.on("/search", json(429, "{}", "Retry-After", "0"), json(503, "{}"), ok("[{\"id\":1}]"));

    RecordingSink sink = read(search(""), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "/search answered 503; not retried: a POST is tried again only with"
                + " errors.retry_non_idempotent: true");
    assertThat(server.paths()).containsExactly("/search", "/search");
  }
}
