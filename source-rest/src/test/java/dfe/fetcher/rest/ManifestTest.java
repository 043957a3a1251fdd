package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code construct.manifest}: a request per listed item, its rows landing; with {@code key} and
 * {@code position} each item a checkpoint, so a tick that fails half way resumes after the last
 * item landed.
 */
class ManifestTest {

  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");
  private static final Instant START = NOW.minus(Duration.ofHours(1));

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Three items, listed in the order of their contentCreated, each with its blob's URL. */
  private String listing(ApiServer blobs) {
    StringBuilder items = new StringBuilder("[");
    String[] ids = {"A", "B", "C"};
    for (int i = 0; i < ids.length; i++) {
      items
          .append(i == 0 ? "" : ",")
          .append("{\"contentId\":\"")
          .append(ids[i])
          .append("\",\"contentCreated\":\"2026-12-01T08:1")
          .append(i)
          .append(":00\",\"contentUri\":\"")
          .append(blobs.url())
          .append("/blob/")
          .append(ids[i])
          .append("\"}");
    }
    return items.append("]").toString();
  }

  private RestConnection connection(String shape, String manifest) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: secret-token}
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
            - unit: audit
              shape: %s
              path: /content
        %s
              rows: {decoder: json_array}
              construct:
                manifest:
        %s
        """
            .formatted(
                server.url(),
                shape,
                shape.equals("tail")
                    ? "      query: {startTime: \"{{ window.start }}\"}\n"
                        + "      window: {format: rfc3339_secs, lookback: 1h}"
                    : "",
                manifest.indent(10).stripTrailing()));
  }

  private static final String ITEMS =
      """
      item_request:
        path: "{{ item.contentUri }}"
        rows: {decoder: json_array}
      """;

  private RecordingSink tail(RestConnection connection, Optional<Mark> checkpoint)
      throws Exception {
    return RestFixture.read(connection, "audit", checkpoint, new MutableClock(NOW));
  }

  @Test
  void eachListedItemIsRequestedAtItsWholeUrlAndOnlyItsRowsLandWithTheAddedFields()
      throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", ok("[{\"op\":1},{\"op\":2}]"));
    server.on("/blob/B", ok("[]"));
    server.on("/blob/C", ok("[{\"op\":3}]"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                "dump", ITEMS + "add_fields: {_content: \"{{ item.contentId }}\", source: m365}"),
            "audit");

    assertThat(sink.records())
        .containsExactly(
            "{\"op\":1,\"_content\":\"A\",\"source\":\"m365\"}",
            "{\"op\":2,\"_content\":\"A\",\"source\":\"m365\"}",
            "{\"op\":3,\"_content\":\"C\",\"source\":\"m365\"}");
    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "end");
    assertThat(server.paths()).containsExactly("/content", "/blob/A", "/blob/B", "/blob/C");
    assertThat(server.requests())
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer secret-token"));
  }

  @Test
  void anItemUrlOnAnotherOriginIsRequestedWithoutTheCredentials() throws Exception {
    try (ApiServer blobs = new ApiServer()) {
      server.on("/content", ok(listing(blobs)));
      blobs.on("/blob/A", ok("[{\"op\":1}]"));
      blobs.on("/blob/B", ok("[]"));
      blobs.on("/blob/C", ok("[]"));

      RecordingSink sink = RestFixture.read(connection("dump", ITEMS), "audit");

      assertThat(sink.records()).containsExactly("{\"op\":1}");
      assertThat(blobs.paths()).containsExactly("/blob/A", "/blob/B", "/blob/C");
      assertThat(blobs.requests())
          .allSatisfy(seen -> assertThat(seen.header("Authorization")).isNull());
      assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer secret-token");
    }
  }

  @Test
  void anItemStatusItsErrorsIgnoreIsNoRowsAndTheNextItemFollows() throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", json(404, "{}"));
    server.on("/blob/B", ok("[{\"op\":2}]"));
    server.on("/blob/C", ok("[]"));

    RecordingSink sink =
        RestFixture.read(
            connection("dump", ITEMS.replace("rows:", "errors: {ignore_status: [404]}\n  rows:")),
            "audit");

    assertThat(sink.records()).containsExactly("{\"op\":2}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void aFailingItemAbortsTheDump() throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", ok("[{\"op\":1}]"));
    server.on("/blob/B", json(500, "{}"));

    RecordingSink sink = RestFixture.read(connection("dump", ITEMS), "audit");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .startsWith("lab.audit: GET " + server.url() + "/blob/B")
        .contains("answered 500");
  }

  @Test
  void aTickThatFailsHalfWayResumesAfterTheLastItemLanded() throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", ok("[{\"op\":1}]"));
    server.on("/blob/B", ok("[{\"op\":2}]"));
    server.on("/blob/C", json(500, "{}"), ok("[{\"op\":3}]"));
    RestConnection connection =
        connection(
            "tail",
            ITEMS + "key: \"{{ item.contentId }}\"\nposition: \"{{ item.contentCreated }}\"");
    RecordingSink first = new RecordingSink();

    assertThatThrownBy(
            () -> {
              try (OpenConnection open =
                  RestFixture.open(connection, new MutableClock(NOW), SourceMetrics.NONE)) {
                open.source("audit").read(Optional.empty(), first, new Cancellation());
              }
            })
        .hasMessageContaining("/blob/C")
        .hasMessageContaining("answered 500");
    assertThat(first.records()).containsExactly("{\"op\":1}", "{\"op\":2}");
    assertThat(first.shape()).containsExactly("row", "advance", "row", "advance");
    assertThat(first.checkpoint())
        .contains(
            new WindowMark(START, Optional.of(new WindowMark.Item("B", "2026-12-01T08:11:00"))));

    RecordingSink second = tail(connection, first.checkpoint());

    assertThat(second.records()).containsExactly("{\"op\":3}");
    assertThat(second.checkpoint()).contains(new WindowMark(NOW));
    assertThat(server.paths())
        .containsExactly(
            "/content?startTime=2026-12-01T08%3A00%3A00Z",
            "/blob/A",
            "/blob/B",
            "/blob/C",
            "/content?startTime=2026-12-01T08%3A00%3A00Z",
            "/blob/C");
  }

  @Test
  void maxItemsEndsATickWithCheckpointsAtTheLastItemAndTheNextTickGoesOn() throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", ok("[{\"op\":1}]"));
    server.on("/blob/B", ok("[{\"op\":2}]"));
    server.on("/blob/C", ok("[{\"op\":3}]"));
    RestConnection connection =
        connection(
            "tail",
            ITEMS
                + "max_items: 2\nkey: \"{{ item.contentId }}\"\nposition: \"{{"
                + " item.contentCreated }}\"");

    RecordingSink first = tail(connection, Optional.empty());
    RecordingSink second = tail(connection, first.checkpoint());

    assertThat(first.records()).containsExactly("{\"op\":1}", "{\"op\":2}");
    assertThat(first.checkpoint())
        .contains(
            new WindowMark(START, Optional.of(new WindowMark.Item("B", "2026-12-01T08:11:00"))));
    assertThat(second.records()).containsExactly("{\"op\":3}");
    assertThat(second.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void maxItemsReachedInADumpAbortsItNamingTheSetting() throws Exception {
    server.on("/content", ok(listing(server)));
    server.on("/blob/A", ok("[{\"op\":1}]"));

    RecordingSink sink = RestFixture.read(connection("dump", ITEMS + "max_items: 1"), "audit");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .isEqualTo(
            "lab.audit: reached sources.rest.lab.profile.endpoints[0].construct.manifest.max_items"
                + " 1 with more items listed (the next: GET "
                + server.url()
                + "/content row 1); cut short, not complete");
  }

  @Test
  void mistakesAreReportedAtTheirPlaces() {
    String base =
        """
        topic: lab
        profile:
          base_url: "http://127.0.0.1:1"
          endpoints:
            - unit: audit
              shape: SHAPE
              path: /content
              query: {s: "{{ window.start }}"}
              rows: {decoder: json_array}
              window: {format: rfc3339_secs, lookback: 1h}
              construct:
        """;
    List<String> keyOnly =
        RestFixture.problems(
            base.replace("SHAPE", "tail")
                + "        manifest:\n"
                + "          item_request: {path: \"/i/{{ item.id }}\", rows: {decoder: document}}\n"
                + "          key: \"{{ item.id }}\"\n");
    List<String> onADump =
        RestFixture.problems(
            base.replace("SHAPE", "dump")
                    .replace("      query: {s: \"{{ window.start }}\"}\n", "")
                    .replace("      window: {format: rfc3339_secs, lookback: 1h}\n", "")
                + "        manifest:\n"
                + "          item_request: {path: \"/i/{{ item.id }}\", rows: {decoder: document}}\n"
                + "          key: \"{{ item.id }}\"\n"
                + "          position: \"{{ item.at }}\"\n");
    List<String> besideAKeyset =
        RestFixture.problems(
            base.replace("SHAPE", "tail")
                + "        keyset: {from: \"{{ ['a'] }}\"}\n"
                + "        manifest:\n"
                + "          item_request: {path: \"/i/{{ item.id }}\", rows: {decoder: document}}\n"
                + "          key: \"{{ item.id }}\"\n"
                + "          position: \"{{ item.at }}\"\n");
    List<String> twice =
        RestFixture.problems(
            base.replace("SHAPE", "tail")
                + "        manifest:\n"
                + "          add_fields: {a: 1}\n"
                + "          item_request:\n"
                + "            path: \"/i/{{ item.id }}\"\n"
                + "            rows: {decoder: document, add_fields: {b: 2}}\n");
    List<String> noRequest =
        RestFixture.problems(base.replace("SHAPE", "tail") + "        manifest: {max_items: 0}\n");

    String at = "sources.rest.lab.profile.endpoints[0].construct.manifest";
    assertThat(keyOnly)
        .containsExactly(
            "config.yaml:14:16: "
                + at
                + ".key: is set without position; an item checkpoint needs both");
    assertThat(onADump)
        .containsExactly(
            "config.yaml:12:16: "
                + at
                + ".key: applies to shape: tail only; a dump commits no checkpoint");
    assertThat(besideAKeyset)
        .containsExactly(
            "config.yaml:15:16: "
                + at
                + ".key: does not combine with construct.keyset: the items of several keys are in"
                + " no one order to resume in");
    assertThat(twice)
        .containsExactly(
            "config.yaml:16:51: "
                + at
                + ".item_request.rows.add_fields: is set beside the construct's add_fields; set"
                + " the fields in one place");
    assertThat(noRequest)
        .containsExactly(
            "config.yaml:12:19: " + at + ".item_request: is required",
            "config.yaml:12:31: " + at + ".max_items: must be at least 1, was 0");
  }
}
