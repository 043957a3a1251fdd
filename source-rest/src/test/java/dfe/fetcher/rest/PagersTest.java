package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PagersTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection dump(String endpoint) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s/v1"
          endpoints:
            - unit: assets
              shape: dump
              path: /assets
        %s
        """
            .formatted(server.url(), endpoint.indent(6)));
  }

  /** Answers by the request's query: each key is a query string ("" for none). */
  @Test
  void linkHeaderFollowsRelNextUntilThereIsNone() throws Exception {
    String next = "<" + server.url() + "/v1/assets?page=2>; rel=\"next\", <x>; rel=\"last\"";
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("[{\"id\":1}]", "Link", next),
                "page=2", ok("[{\"id\":2}]", "Link", "</v1/assets?page=1>; rel=\"prev\""))));

    RecordingSink sink =
        RestFixture.read(
            dump("rows: {decoder: json_array}\npaginate: {type: link_header}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/v1/assets", "/v1/assets?page=2");
  }

  @Test
  void cursorFromTheBodyGoesIntoTheQueryAndANullTokenEnds() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"items\":[{\"id\":1}],\"next\":\"c2\"}"),
                "cursor=c2", ok("{\"items\":[{\"id\":2}],\"next\":null}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /items}\n"
                    + "paginate: {type: cursor, from: \"body:/next\", into: \"query:cursor\"}"),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/v1/assets", "/v1/assets?cursor=c2");
  }

  @Test
  void cursorFromAHeaderEndsOnAnEmptyToken() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("[{\"id\":1}]", "X-Next", "t 2"),
                "after=t+2", ok("[{\"id\":2}]", "X-Next", ""))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_array}\n"
                    + "paginate: {type: cursor, from: \"header:X-Next\", into: \"query:after\"}"),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/v1/assets", "/v1/assets?after=t+2");
  }

  @Test
  void pageNumberEndsOnAnEmptyPage() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("[{\"id\":1},{\"id\":2}]"),
                "p=2", ok("[{\"id\":3}]"),
                "p=3", ok("[]"))));

    RecordingSink sink =
        RestFixture.read(
            dump("rows: {decoder: json_array}\npaginate: {type: page_number, param: p}"), "assets");

    assertThat(sink.records()).hasSize(3);
    assertThat(server.paths())
        .containsExactly("/v1/assets?p=1", "/v1/assets?p=2", "/v1/assets?p=3");
  }

  @Test
  void pageNumberEndsAtTheTotalThePageGives() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "page=0", ok("{\"rows\":[{\"id\":1}],\"pages\":2}"),
                "page=1", ok("{\"rows\":[{\"id\":2}],\"pages\":2}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /rows}\n"
                    + "paginate: {type: page_number, param: page, start: 0, total_pages_at:"
                    + " /pages}"),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/v1/assets?page=0", "/v1/assets?page=1");
  }

  @Test
  void offsetAdvancesByTheRowsReceivedAndAShortPageDoesNotEnd() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "offset=0&limit=3", ok("[{\"id\":1},{\"id\":2}]"),
                "offset=2&limit=3", ok("[{\"id\":3}]"),
                "offset=3&limit=3", ok("[]"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_array}\n"
                    + "paginate: {type: offset, param: offset, limit_param: limit, page_size: 3}"),
            "assets");

    assertThat(sink.records()).hasSize(3);
    assertThat(server.paths())
        .containsExactly(
            "/v1/assets?offset=0&limit=3",
            "/v1/assets?offset=2&limit=3",
            "/v1/assets?offset=3&limit=3");
  }

  @Test
  void aNextLinkAlreadyRequestedAbortsTheDumpNamingIt() throws Exception {
    String toTwo = "<" + server.url() + "/v1/assets?page=2>; rel=\"next\"";
    String backToOne = "<" + server.url() + "/v1/assets>; rel=\"next\"";
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("[{\"id\":1}]", "Link", toTwo),
                "page=2", ok("[{\"id\":2}]", "Link", backToOne))));

    RecordingSink sink =
        RestFixture.read(
            dump("rows: {decoder: json_array}\npaginate: {type: link_header}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: pagination loops: page 3 would be GET "
                + server.url()
                + "/v1/assets again, already requested in this dump");
    assertThat(server.paths()).containsExactly("/v1/assets", "/v1/assets?page=2");
  }

  @Test
  void aPageListedAgainUnderANewUrlAbortsTheDumpNamingBothPages() throws Exception {
    // page=2 links to itself under a new visit= each time, then moves on: no URL repeats, yet the
    // same rows come back, and a dump that took them would end with page 2's rows three times.
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("[{\"id\":1}]", "Link", "</v1/assets?page=2>; rel=\"next\""),
                "page=2", ok("[{\"id\":2}]", "Link", "</v1/assets?page=2&visit=1>; rel=\"next\""),
                "page=2&visit=1",
                    ok("[{\"id\":2}]", "Link", "</v1/assets?page=2&visit=2>; rel=\"next\""),
                "page=2&visit=2", ok("[{\"id\":2}]", "Link", "</v1/assets?page=3>; rel=\"next\""),
                "page=3", ok("[{\"id\":3}]"))));

    RecordingSink sink =
        RestFixture.read(
            dump("rows: {decoder: json_array}\npaginate: {type: link_header}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: pagination loops: page 3 (GET "
                + server.url()
                + "/v1/assets?page=2&visit=1) holds the same rows as page 2 (GET "
                + server.url()
                + "/v1/assets?page=2) under another URL; the listing went round, so this dump"
                + " is not complete");
    assertThat(server.paths())
        .containsExactly("/v1/assets", "/v1/assets?page=2", "/v1/assets?page=2&visit=1");
  }

  @Test
  void emptyPagesAlikeAreNotALoop() throws Exception {
    // Some APIs page through empty pages before the rows (a filtered AWS listing): empty pages
    // are all the same, and not the listing going round.
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("[]", "Link", "</v1/assets?page=2>; rel=\"next\""),
                "page=2", ok("[]", "Link", "</v1/assets?page=3>; rel=\"next\""),
                "page=3", ok("[{\"id\":3}]"))));

    RecordingSink sink =
        RestFixture.read(
            dump("rows: {decoder: json_array}\npaginate: {type: link_header}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void aCursorThatRepeatsIsALoop() throws Exception {
    // Rows that differ, so the request made twice is what tells the loop.
    server.on(
        "/v1/assets",
        ok("{\"items\":[{\"id\":1}],\"next\":\"same\"}"),
        ok("{\"items\":[{\"id\":2}],\"next\":\"same\"}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /items}\n"
                    + "paginate: {type: cursor, from: \"body:/next\", into: \"query:cursor\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .contains(
            "pagination loops: page 3 would be GET " + server.url() + "/v1/assets?cursor=same");
  }

  @Test
  void aDumpThatReachesMaxPagesWithMoreToReadIsAbortedNotEnded() throws Exception {
    server.on(
        "/v1/assets",
        (HttpExchange exchange) -> {
          String query = exchange.getRequestURI().getRawQuery();
          int page = query == null ? 1 : Integer.parseInt(query.substring("page=".length()));
          ok("{\"items\":[{\"id\":"
                  + page
                  + "}],\"has_more\":false,\"next\":\""
                  + (page + 1)
                  + "\"}")
              .answer(exchange);
        });

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /items}\n"
                    + "paginate: {type: cursor, from: \"body:/next\", into: \"query:page\"}\n"
                    + "max_pages: 3"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: reached max_pages 3 with more to read (the next page: "
                + server.url()
                + "/v1/assets?page=4); cut short, not complete");
    assertThat(server.paths()).hasSize(3);
  }

  @Test
  void aDumpThatEndsAtMaxPagesExactlyIsComplete() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"items\":[{\"id\":1}],\"next\":\"2\"}"),
                "page=2", ok("{\"items\":[{\"id\":2}]}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /items}\n"
                    + "paginate: {type: cursor, from: \"body:/next\", into: \"query:page\"}\n"
                    + "max_pages: 2"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
  }

  @Test
  void failWhenTurnsAnErrorAnsweredWith200IntoAnAbortBeforeAnyRowOfThatPage() throws Exception {
    server.on(
        "/v1/assets",
        ok("{\"ok\":false,\"error\":{\"message\":\"quota exceeded\"},\"items\":[{\"id\":1}]}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "rows: {decoder: json_at, at: /items}\n"
                    + "fail_when: \"body.ok == false\"\n"
                    + "error_at: /error/message"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets answered 2xx, but fail_when holds (body.ok == false): \"quota"
                + " exceeded\"");
  }
}
