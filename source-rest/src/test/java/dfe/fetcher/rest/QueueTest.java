package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.SourceUnit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code construct.queue}: pulls delivered as rows, each pull's messages acknowledged, {@code
 * ack_batch} a request, only once {@code awaitLanded} returned; a pull with no message ends the
 * tick. The server answers in Pub/Sub's documented shapes: {@code subscriptions.pull} answers
 * {@code {"receivedMessages": [...]}} (or {@code {}} when there are none), {@code
 * subscriptions.acknowledge} takes {@code {"ackIds": [...]}} and answers {@code {}}.
 */
class QueueTest {

  private static final String PULL = "/v1/projects/p1/subscriptions/s1:pull";
  private static final String ACK = "/v1/projects/p1/subscriptions/s1:acknowledge";

  private ApiServer server;
  private RecordingSink sink;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    sink = new RecordingSink();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(String rows, String maxPages, String queue) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: secret-token}
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
            - unit: pull
              shape: tail
              method: POST
              path: %s
              body: {maxMessages: 3, returnImmediately: true}
              rows: %s
              max_pages: %s
              construct:
                queue:
        %s
        """
            .formatted(server.url(), PULL, rows, maxPages, queue.indent(10).stripTrailing()));
  }

  private static final String PUBSUB =
      "{decoder: json_at, at: /receivedMessages, allow_missing: true, builder: pubsub_message}";

  private static String queue(int ackBatch) {
    return """
        ack_at: /ackId
        ack_batch: %d
        ack_request:
          path: %s
          body: {ackIds: "{{ ack_ids }}"}
        """
        .formatted(ackBatch, ACK);
  }

  private RestConnection pubsub(int ackBatch) {
    return connection(PUBSUB, "10", queue(ackBatch));
  }

  /** One {@code ReceivedMessage} whose data is {@code {"n": n}}. */
  private static String message(String ackId, int n) {
    String data =
        Base64.getEncoder().encodeToString(("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8));
    return "{\"ackId\":\""
        + ackId
        + "\",\"message\":{\"data\":\""
        + data
        + "\",\"messageId\":\"m"
        + n
        + "\",\"publishTime\":\"2026-12-01T08:00:0"
        + (n % 10)
        + "Z\"}}";
  }

  private static String pulled(String... messages) {
    return "{\"receivedMessages\":[" + String.join(",", messages) + "]}";
  }

  private static String row(String ackId, int n) {
    return "{\"n\":"
        + n
        + ",\"_dfe_fetcher_pubsub\":{\"ackId\":\""
        + ackId
        + "\",\"messageId\":\"m"
        + n
        + "\",\"publishTime\":\"2026-12-01T08:00:0"
        + (n % 10)
        + "Z\"}}";
  }

  /** Notes each request to {@code path} in the sink's events as {@code word}, then answers. */
  private ApiServer.Answer noted(String word, ApiServer.Answer answer) {
    return exchange -> {
      sink.sent(word);
      answer.answer(exchange);
    };
  }

  private List<String> bodiesSentTo(String path) {
    return server.requests().stream()
        .filter(seen -> seen.pathAndQuery().equals(path))
        .map(ApiServer.Seen::body)
        .toList();
  }

  private RecordingSink tick(RestConnection connection) throws Exception {
    return RestFixture.read(connection, "pull", Optional.empty(), Clock.systemUTC(), sink);
  }

  @Test
  void aPullsRowsLandThenItsAckIdsAreAcknowledgedInBatchesAndAnEmptyPullEndsTheTick()
      throws Exception {
    server.on(
        PULL,
        noted("pull", ok(pulled(message("a1", 1), message("a2", 2), message("a3", 3)))),
        noted("pull", ok("{}")));
    server.on(ACK, noted("ack", ok("{}")));

    tick(pubsub(2));

    assertThat(sink.records()).containsExactly(row("a1", 1), row("a2", 2), row("a3", 3));
    assertThat(sink.shape())
        .containsExactly("pull", "row", "row", "row", "landed", "ack", "ack", "pull");
    assertThat(bodiesSentTo(ACK))
        .containsExactly("{\"ackIds\":[\"a1\",\"a2\"]}", "{\"ackIds\":[\"a3\"]}");
    assertThat(bodiesSentTo(PULL))
        .containsOnly("{\"maxMessages\":3,\"returnImmediately\":true}")
        .hasSize(2);
    assertThat(server.requests())
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer secret-token"));
  }

  @Test
  void oneMoreAckIdThanTheDefaultBatchGoesInTwoRequestsOfTheIdsAsTheMessagesTypedThem()
      throws Exception {
    List<String> messages = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= 501; i++) {
      messages.add("{\"id\":" + i + ",\"v\":\"x\"}");
      ids.add(Integer.toString(i));
    }
    server.on(
        PULL, noted("pull", ok("{\"messages\":[" + String.join(",", messages) + "]}")), ok("{}"));
    server.on(ACK, noted("ack", ok("{}")));

    tick(
        connection(
            "{decoder: json_at, at: /messages, allow_missing: true}",
            "10",
            """
            ack_at: /id
            ack_request:
              path: %s
              body: {ids: "{{ ack_ids }}", subscription: s1}
            """
                .formatted(ACK)));

    assertThat(sink.rowCount()).isEqualTo(501);
    assertThat(bodiesSentTo(ACK))
        .containsExactly(
            "{\"ids\":[" + String.join(",", ids.subList(0, 500)) + "],\"subscription\":\"s1\"}",
            "{\"ids\":[501],\"subscription\":\"s1\"}");
    assertThat(sink.shape()).endsWith("landed", "ack", "ack");
  }

  @Test
  void theAckIdIsReadFromTheMessageAsPulledNotFromTheRowItBecame() throws Exception {
    // The builder moves ackId under _dfe_fetcher_pubsub and add_fields adds beside it: ack_at
    // still reads /ackId of the ReceivedMessage.
    server.on(PULL, ok(pulled(message("only-raw", 7))), ok("{}"));
    server.on(ACK, ok("{}"));

    tick(connection(PUBSUB.replace("}", ", add_fields: {sub: s1}}"), "10", queue(500)));

    assertThat(sink.records())
        .containsExactly(row("only-raw", 7).replace("}}", "},\"sub\":\"s1\"}"));
    assertThat(bodiesSentTo(ACK)).containsExactly("{\"ackIds\":[\"only-raw\"]}");
  }

  @Test
  void aTransportThatFailsWhileTheRowsLandGetsNothingAcknowledged() throws Exception {
    server.on(PULL, ok(pulled(message("a1", 1), message("a2", 2))));
    server.on(ACK, ok("{}"));
    sink.failingToLand(new IllegalStateException("the transport failed: broker gone"));

    assertThatThrownBy(() -> tick(pubsub(500)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the transport failed: broker gone");

    assertThat(sink.records()).containsExactly(row("a1", 1), row("a2", 2));
    assertThat(server.paths()).containsExactly(PULL);
  }

  @Test
  void aFailingAcknowledgementFailsTheTickAndPullsNoMore() throws Exception {
    server.on(PULL, ok(pulled(message("a1", 1), message("a2", 2), message("a3", 3))));
    server.on(
        ACK,
        noted("ack", ok("{}")),
        noted("ack", json(503, "{\"error\":{\"message\":\"backend unavailable\"}}")));

    assertThatThrownBy(() -> tick(pubsub(2)))
        .hasMessageStartingWith("lab.pull: POST " + server.url() + ACK)
        .hasMessageContaining("answered 503")
        .hasMessageEndingWith(
            " (the sources.rest.lab.profile.endpoints[0].construct.queue.ack_request of 1 ack"
                + " ids, request 2 of 2; what it and those after it carry stays unacknowledged,"
                + " and the provider delivers those messages again)");

    assertThat(sink.shape()).containsExactly("row", "row", "row", "landed", "ack", "ack");
    assertThat(server.paths()).containsExactly(PULL, ACK, ACK);
  }

  @Test
  void anEmptyFirstPullLandsNothingAndAcknowledgesNothing() throws Exception {
    server.on(PULL, noted("pull", ok("{}")));
    server.on(ACK, ok("{}"));

    tick(pubsub(500));

    assertThat(sink.shape()).containsExactly("pull");
    assertThat(server.paths()).containsExactly(PULL);
  }

  @Test
  void maxPagesBoundsThePullsOfATickAndEachPullIsAcknowledgedBeforeTheNext() throws Exception {
    server.on(
        PULL,
        noted("pull", ok(pulled(message("a1", 1)))),
        noted("pull", ok(pulled(message("a2", 2)))),
        noted("pull", ok(pulled(message("a3", 3)))));
    server.on(ACK, noted("ack", ok("{}")));

    tick(connection(PUBSUB, "2", queue(500)));

    assertThat(sink.records()).containsExactly(row("a1", 1), row("a2", 2));
    assertThat(sink.shape())
        .containsExactly("pull", "row", "landed", "ack", "pull", "row", "landed", "ack");
    assertThat(bodiesSentTo(ACK)).containsExactly("{\"ackIds\":[\"a1\"]}", "{\"ackIds\":[\"a2\"]}");
  }

  @Test
  void aMessageWithoutAnAckIdFailsThePullBeforeItsRowAndNothingIsAcknowledged() throws Exception {
    server.on(
        PULL,
        ok(
            pulled(
                message("a1", 1),
                "{\"message\":{\"data\":\"e30=\",\"messageId\":\"m2\"}}",
                message("a3", 3))));
    server.on(ACK, ok("{}"));

    assertThatThrownBy(() -> tick(pubsub(500)))
        .hasMessage(
            "lab.pull: POST "
                + server.url()
                + PULL
                + " row 1: sources.rest.lab.profile.endpoints[0].construct.queue.ack_at: the"
                + " message has no ack id at /ackId; it is not acknowledged, so the provider"
                + " delivers it again");

    assertThat(sink.records()).containsExactly(row("a1", 1));
    assertThat(server.paths()).containsExactly(PULL);
  }

  @Test
  void aQueueUnitIgnoresAnyCheckpointAndCommitsNone() throws Exception {
    server.on(PULL, ok(pulled(message("a1", 1))), ok("{}"));
    server.on(ACK, ok("{}"));
    Optional<Mark> stale = Optional.of(new WindowMark(Instant.parse("2026-01-01T00:00:00Z")));

    RestFixture.read(pubsub(500), "pull", stale, Clock.systemUTC(), sink);

    assertThat(sink.shape()).containsExactly("row", "landed");
    assertThat(sink.checkpoint()).isEmpty();
    assertThat(server.paths()).containsExactly(PULL, ACK, PULL);
  }

  @Test
  void configCheckNamesTheQueueAndTheUnitCommitsNoCheckpoint() {
    SourceUnit unit = pubsub(2).units().get(0);

    assertThat(unit.details())
        .contains(
            "rows json_at at /receivedMessages, at most 10 pulls a tick",
            "constructs: queue acknowledging 2 ack ids a request, POST " + ACK);
    assertThat(unit.markKind()).isEmpty();
  }

  @Test
  void mistakesAreReportedAtTheirPlaces() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: adump
                      shape: dump
                      path: /pull
                      rows: {decoder: json_array}
                      construct:
                        queue: {ack_at: /ackId, ack_request: {path: /ack, body: {ids: "{{ ack_ids }}"}}}
                    - unit: nothing
                      shape: tail
                      path: /pull
                      rows: {decoder: json_array}
                      construct: {queue: {ack_batch: 10001}}
                    - unit: noids
                      shape: tail
                      path: /pull
                      rows: {decoder: json_array}
                      construct:
                        queue: {ack_at: /ackId, ack_batch: 0, ack_request: {path: /ack, body: {ids: [1]}}}
                    - unit: nobody
                      shape: tail
                      path: /pull
                      rows: {decoder: json_array}
                      construct: {queue: {ack_at: ackId, ack_request: {path: /ack}}}
                    - unit: windowed
                      shape: tail
                      path: /pull
                      query: {since: "{{ window.start }}"}
                      rows: {decoder: json_array}
                      window: {format: rfc3339_secs, lookback: 1h}
                      paginate: {type: link_header}
                      construct:
                        queue: {ack_at: /ackId, ack_request: {path: /ack, body: {ids: "{{ ack_ids }}"}}}
                    - unit: beside
                      shape: tail
                      path: /pull
                      rows: {decoder: json_array}
                      construct:
                        keyset: {from: "{{ ['a', 'b'] }}"}
                        lookup:
                          request: {path: /l, body: {i: "{{ ids }}"}, rows: {decoder: json_array}}
                        queue: {ack_at: /ackId, ack_request: {path: /ack, body: {ids: "{{ ack_ids }}"}}}
                    - unit: idsoutside
                      shape: tail
                      path: "/pull/{{ ack_ids }}"
                      rows: {decoder: json_array}
                      construct:
                        queue: {ack_at: /ackId, ack_request: {path: /ack, body: {ids: "{{ ack_ids }}"}}}
                units:
                  nothing: {lookback: 1h}
                """))
        .containsExactly(
            "config.yaml:10:16: sources.rest.lab.profile.endpoints[0].construct.queue: applies to shape: tail only: a"
                + " queue is pulled from and acknowledged, never listed whole as a dump",
            "config.yaml:15:26: sources.rest.lab.profile.endpoints[1].construct.queue.ack_at: is required",
            "config.yaml:15:26: sources.rest.lab.profile.endpoints[1].construct.queue.ack_request: is required",
            "config.yaml:15:38: sources.rest.lab.profile.endpoints[1].construct.queue.ack_batch: must be at most 10000,"
                + " was 10001",
            "config.yaml:21:44: sources.rest.lab.profile.endpoints[2].construct.queue.ack_batch: must be at least 1, was 0",
            "config.yaml:21:79: sources.rest.lab.profile.endpoints[2].construct.queue.ack_request.body: reads no {{"
                + " ack_ids }}, so no message would be acknowledged; send them, e.g. body:"
                + " {ackIds: \"{{ ack_ids }}\"}",
            "config.yaml:26:35: sources.rest.lab.profile.endpoints[3].construct.queue.ack_at: is not a JSON pointer (e.g."
                + " /items or /data/0/error): Invalid input: JSON Pointer expression must start"
                + " with '/': \"ackId\"",
            "config.yaml:26:55: sources.rest.lab.profile.endpoints[3].construct.queue.ack_request: has no body, so no"
                + " message would be acknowledged; send them, e.g. body: {ackIds: \"{{ ack_ids"
                + " }}\"}",
            "config.yaml:30:22: sources.rest.lab.profile.endpoints[4].query.since: reads {{ window.start }}, which a queue"
                + " unit does not have: it reads no window (the provider keeps what is not"
                + " acknowledged)",
            "config.yaml:32:15: sources.rest.lab.profile.endpoints[4].window: does not apply with construct.queue: a queue"
                + " unit reads no window and commits no checkpoint (the provider keeps what is"
                + " not acknowledged); leave it out",
            "config.yaml:33:17: sources.rest.lab.profile.endpoints[4].paginate: does not combine with construct.queue: a"
                + " pull is one request, and the unit pulls again (up to max_pages a tick)"
                + " instead of paging; leave paginate out",
            "config.yaml:44:16: sources.rest.lab.profile.endpoints[5].construct.queue: does not combine with"
                + " construct.keyset: a queue unit pulls from one queue and acknowledges there;"
                + " give each subscription its own unit",
            "config.yaml:44:16: sources.rest.lab.profile.endpoints[5].construct.queue: beside lookup: an endpoint takes at"
                + " most one of lookup, manifest, queue (a keyset may go beside a lookup or a"
                + " manifest)",
            "config.yaml:47:13: sources.rest.lab.profile.endpoints[6].path: reads {{ ack_ids }}, which only a"
                + " construct.queue ack_request has",
            "config.yaml:52:23: sources.rest.lab.units.nothing.lookback: does not apply to a"
                + " queue unit, which reads no window");
  }

  /** The connection of the example under "### `queue`" in docs/sources-rest.md, as written. */
  private static String documentedExample() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "sources-rest.md"));
    int at = lines.indexOf("### `queue`: pull, land, then acknowledge");
    while (!lines.get(at).equals("```yaml")) {
      at++;
    }
    assertThat(lines.subList(at + 1, at + 4)).containsExactly("sources:", "  rest:", "    pubsub:");
    StringBuilder connection = new StringBuilder();
    for (at += 4; !lines.get(at).equals("```"); at++) {
      connection.append(lines.get(at).substring(6)).append('\n');
    }
    return connection.toString();
  }

  @Test
  void theDocumentedPubSubExampleSendsTheDocumentedRequests() throws Exception {
    String pull = "/v1/projects/my-project/subscriptions/audit-logs:pull";
    String ack = "/v1/projects/my-project/subscriptions/audit-logs:acknowledge";
    server.on(pull, ok(pulled(message("a1", 1), message("a2", 2))), ok("{}"));
    server.on(ack, ok("{}"));
    RestConnection connection =
        RestFixture.connection(
            documentedExample().replace("https://pubsub.googleapis.com", server.url()),
            Map.of("GCP_ACCESS_TOKEN", "ya29.token"));

    tick(connection);

    assertThat(sink.records()).containsExactly(row("a1", 1), row("a2", 2));
    assertThat(server.requests())
        .extracting(ApiServer.Seen::method, ApiServer.Seen::pathAndQuery, ApiServer.Seen::body)
        .containsExactly(
            tuple("POST", pull, "{\"maxMessages\":1000,\"returnImmediately\":true}"),
            tuple("POST", ack, "{\"ackIds\":[\"a1\",\"a2\"]}"));
    assertThat(server.requests())
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer ya29.token"));
  }
}
