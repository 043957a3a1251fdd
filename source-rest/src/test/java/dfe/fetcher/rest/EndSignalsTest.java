package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code has_more} and {@code stop_when} end any pager's listing on the page that says so, with no
 * request past it; an answer that cannot say (a missing or mistyped {@code has_more}, a {@code
 * stop_when} that cannot be judged, {@code has_more: true} without a next page) fails the dump.
 */
class EndSignalsTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection dump(String rows, String paginate) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - unit: assets
              shape: dump
              path: /assets
              rows: %s
              paginate: %s
        """
            .formatted(server.url(), rows, paginate));
  }

  private static final String ITEMS = "{decoder: json_at, at: /items}";
  private static final String PAGES = "{type: page_number, param: p, has_more: /has_more}";

  @Test
  void hasMoreFalseEndsAPageNumberListingWithoutAnotherRequest() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("{\"items\":[{\"id\":1}],\"has_more\":true}"),
                "p=2", ok("{\"has_more\":false,\"items\":[{\"id\":2}]}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, PAGES), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets?p=1", "/assets?p=2");
  }

  @Test
  void hasMoreFalseEndsACursorListingThatStillHandsACursor() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}],\"has_more\":false,\"next\":\"c2\"}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                ITEMS,
                "{type: cursor, from: \"body:/next\", into: \"query:cursor\", has_more:"
                    + " /has_more}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets");
  }

  @Test
  void aMissingHasMoreFailsTheDump() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("{\"items\":[{\"id\":1}],\"has_more\":true}"),
                "p=2", ok("{\"items\":[{\"id\":2}]}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, PAGES), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets?p=2: paginate.has_more: the body has nothing at /has_more");
  }

  @Test
  void aHasMoreThatIsAStringFailsTheDump() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}],\"has_more\":\"false\"}"));

    RecordingSink sink = RestFixture.read(dump(ITEMS, PAGES), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("/assets?p=1: paginate.has_more: /has_more is a string, not a boolean");
    assertThat(server.paths()).containsExactly("/assets?p=1");
  }

  @Test
  void hasMoreTrueWithoutACursorFailsTheDump() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}],\"has_more\":true,\"next\":null}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                ITEMS,
                "{type: cursor, from: \"body:/next\", into: \"query:cursor\", has_more:"
                    + " /has_more}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "paginate.has_more: /has_more is true, but the page gives no next page (no cursor or"
                + " link)");
  }

  @Test
  void hasMoreTrueOnAnEmptyPageFailsTheDump() throws Exception {
    server.on("/assets", ok("{\"items\":[],\"has_more\":true}"));

    RecordingSink sink = RestFixture.read(dump(ITEMS, PAGES), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "paginate.has_more: /has_more is true, but the page gives no next page (it is"
                + " empty)");
  }

  @Test
  void stopWhenOverTheBodyEndsALinkHeaderListingThatStillLinks() throws Exception {
    String next = "<" + server.url() + "/assets?page=2>; rel=\"next\"";
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "",
                ok("{\"items\":[{\"id\":1}],\"meta\":{\"last\":false}}", "Link", next),
                "page=2",
                ok(
                    "{\"items\":[{\"id\":2}],\"meta\":{\"last\":true}}",
                    "Link",
                    "<" + server.url() + "/assets?page=3>; rel=\"next\""))));

    RecordingSink sink =
        RestFixture.read(
            dump(ITEMS, "{type: link_header, stop_when: \"body.meta.last == true\"}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets", "/assets?page=2");
  }

  @Test
  void stopWhenReadsTheRowCountAndTheHeadersOfAStreamedDecoder() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("[{\"id\":1},{\"id\":2}]", "X-Last-Page", "no"),
                "p=2", ok("[{\"id\":3}]", "X-Last-Page", "no"),
                "p=3", ok("[{\"id\":4},{\"id\":5}]", "X-Last-Page", "yes"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_array}",
                "{type: page_number, param: p, stop_when: \"headers['x-last-page'] == 'yes' ||"
                    + " rows == 0\"}"),
            "assets");

    assertThat(sink.records()).hasSize(5);
    assertThat(server.paths()).containsExactly("/assets?p=1", "/assets?p=2", "/assets?p=3");
  }

  @Test
  void aStopWhenThatCannotBeJudgedFailsTheDump() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}]}"));

    RecordingSink sink =
        RestFixture.read(
            dump(ITEMS, "{type: page_number, param: p, stop_when: \"body.meta.last == true\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .startsWith(
            "lab.assets: GET "
                + server.url()
                + "/assets?p=1: paginate.stop_when (body.meta.last == true) cannot be judged on"
                + " the page: ");
    assertThat(server.paths()).containsExactly("/assets?p=1");
  }

  @Test
  void theSameEndSignalsBindToEqualConnectionsSoAReloadKeepsThem() {
    String paginate =
        "{type: page_number, param: p, has_more: /has_more, stop_when: \"body.last == true\"}";

    assertThat(dump(ITEMS, paginate)).isEqualTo(dump(ITEMS, paginate));
    assertThat(dump(ITEMS, paginate))
        .isNotEqualTo(
            dump(
                ITEMS,
                "{type: page_number, param: p, has_more: /has_more, stop_when: \"body.last\"}"));
  }

  @Test
  void endSignalsThatCannotWorkAreRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
                       paginate: {type: none, has_more: /more}}
                    - {unit: b, shape: dump, path: /b, rows: {decoder: ndjson},
                       paginate: {type: page_number, param: p, stop_when: "body.last"}}
                    - {unit: c, shape: dump, path: /c, rows: {decoder: json_at, at: /items},
                       paginate: {type: page_number, param: p, stop_when: "page.last"}}
                    - {unit: d, shape: dump, path: /d, rows: {decoder: json_at, at: /items},
                       paginate: {type: page_number, param: p, stop_when: "body.last =="}}
                    - {unit: e, shape: dump, path: /e, rows: {decoder: json_at, at: /items},
                       paginate: {type: page_number, param: p, has_more: /items/0/more}}
                    - {unit: f, shape: dump, path: /f, rows: {decoder: csv},
                       paginate: {type: page_number, param: p, has_more: /more}}
                """))
        .containsExactly(
            "config.yaml:6:41: sources.rest.lab.profile.endpoints[0].paginate.has_more: does not"
                + " apply to pager none",
            "config.yaml:8:18: sources.rest.lab.profile.endpoints[1].paginate: reads the page's"
                + " body, which decoder ndjson streams and does not hold; use json_at or document",
            "config.yaml:10:59: sources.rest.lab.profile.endpoints[2].paginate.stop_when: reads"
                + " page; it sees body, rows, headers (e.g. body.meta.last == true, rows < 100)",
            "config.yaml:12:59: sources.rest.lab.profile.endpoints[3].paginate.stop_when: does not"
                + " compile: ERROR: filter:1:13: mismatched input '<EOF>' expecting {'[', '{', '(',"
                + " '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING,"
                + " BYTES, IDENTIFIER}\n | body.last ==\n | ............^",
            "config.yaml:14:58: sources.rest.lab.profile.endpoints[4].paginate.has_more: points"
                + " into the rows array at /items (rows.at), which json_at streams and does not"
                + " keep; point to a value beside the rows",
            "config.yaml:16:18: sources.rest.lab.profile.endpoints[5].paginate: reads the page's"
                + " body, which decoder csv streams and does not hold; use json_at or document");
  }
}
