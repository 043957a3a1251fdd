package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code cursor} goes where the API takes it: a query parameter, a field of a POST listing's JSON
 * body ({@code into: body:/pointer}) or one more path segment ({@code into: path}); a cursor that
 * repeats is a loop wherever it goes, and one of the wrong type fails the page.
 */
class CursorPlacementTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(String endpoint) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - unit: assets
              shape: dump
        %s
        """
            .formatted(server.url(), endpoint.indent(6)));
  }

  /** Answers by the request's JSON body. */
  private static ApiServer.Answer byBody(Map<String, ApiServer.Answer> answers) {
    return (HttpExchange exchange) -> {
      String body = (String) exchange.getAttribute(ApiServer.BODY);
      ApiServer.Answer answer = answers.get(body);
      if (answer == null) {
        ApiServer.json(400, "{\"error\":\"unexpected body\"}").answer(exchange);
      } else {
        answer.answer(exchange);
      }
    };
  }

  @Test
  void aCursorGoesIntoAFieldOfThePostBodyBesideTheEndpointsOwnFields() throws Exception {
    server.on(
        "/search",
        byBody(
            Map.of(
                "{\"query\":\"*\",\"page\":{\"size\":2}}",
                ok("{\"hits\":[{\"id\":1},{\"id\":2}],\"next\":\"c2\"}"),
                "{\"query\":\"*\",\"page\":{\"size\":2,\"after\":\"c2\"}}",
                ok("{\"hits\":[{\"id\":3}],\"next\":null}"))));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                method: POST
                path: /search
                body: {query: "*", page: {size: 2}}
                rows: {decoder: json_at, at: /hits}
                paginate: {type: cursor, from: "body:/next", into: "body:/page/after"}"""),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::body)
        .containsExactly(
            "{\"query\":\"*\",\"page\":{\"size\":2}}",
            "{\"query\":\"*\",\"page\":{\"size\":2,\"after\":\"c2\"}}");
    assertThat(server.paths()).containsExactly("/search", "/search");
  }

  @Test
  void aHeaderCursorGoesIntoTheBodyOfAPostWithoutOne() throws Exception {
    server.on(
        "/search",
        byBody(
            Map.of(
                "", ok("[{\"id\":1}]", "X-Next", "t2"),
                "{\"cursor\":\"t2\"}", ok("[{\"id\":2}]"))));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                method: POST
                path: /search
                rows: {decoder: json_array}
                paginate: {type: cursor, from: "header:X-Next", into: "body:/cursor"}"""),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::body)
        .containsExactly("", "{\"cursor\":\"t2\"}");
  }

  @Test
  void aBodyCursorThatRepeatsIsALoopThatFailsTheDump() throws Exception {
    // Rows that differ, so the request made twice is what tells the loop.
    server.on(
        "/search",
        ok("{\"hits\":[{\"id\":1}],\"next\":\"same\"}"),
        ok("{\"hits\":[{\"id\":2}],\"next\":\"same\"}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                method: POST
                path: /search
                body: {query: "*"}
                rows: {decoder: json_at, at: /hits}
                paginate: {type: cursor, from: "body:/next", into: "body:/cursor"}"""),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: pagination loops: page 3 would be POST "
                + server.url()
                + "/search with the same body again, already requested in this dump");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void aCursorGoesIntoThePathAsOneMoreSegmentKeepingTheQuery() throws Exception {
    server.on("/events", ok("{\"events\":[{\"id\":1}],\"next\":\"a/b c\"}"));
    // The server routes by the decoded path: the segment arrives as one, encoded (paths() below).
    server.on("/events/a/b c", ok("{\"events\":[{\"id\":2}],\"next\":\"\"}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                path: /events
                query: {limit: "10"}
                rows: {decoder: json_at, at: /events}
                paginate: {type: cursor, from: "body:/next", into: path}"""),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/events?limit=10", "/events/a%2Fb%20c?limit=10");
  }

  @Test
  void aDotSegmentCursorIntoThePathFailsThePageInsteadOfRequestingTheParent() throws Exception {
    server.on("/events", ok("{\"events\":[{\"id\":1}],\"next\":\"..\"}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                path: /events
                rows: {decoder: json_at, at: /events}
                paginate: {type: cursor, from: "body:/next", into: path}"""),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "paginate.into: path: the cursor is a dot segment ('.' or '..'), which is no page");
    assertThat(server.paths()).containsExactly("/events");
  }

  @Test
  void aCursorThatIsAnObjectFailsThePageInsteadOfEndingTheDump() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}],\"next\":{\"token\":\"c2\"}}"));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                path: /assets
                rows: {decoder: json_at, at: /items}
                paginate: {type: cursor, from: "body:/next", into: "query:cursor"}"""),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets: paginate.from: the cursor at /next is a JSON object, not a string or"
                + " a number");
  }

  @Test
  void aNumericCursorIsSentAsItsText() throws Exception {
    server.on(
        "/assets",
        (HttpExchange exchange) ->
            ok(exchange.getRequestURI().getRawQuery() == null
                    ? "{\"items\":[{\"id\":1}],\"next\":1700000000123}"
                    : "{\"items\":[{\"id\":2}]}")
                .answer(exchange));

    RecordingSink sink =
        RestFixture.read(
            connection(
                """
                path: /assets
                rows: {decoder: json_at, at: /items}
                paginate: {type: cursor, from: "body:/next", into: "query:after"}"""),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/assets", "/assets?after=1700000000123");
  }

  @Test
  void aBodyCursorOnAGetAndAnIntoOfNoKnownPlaceAreRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
                       paginate: {type: cursor, from: "header:X-Next", into: "body:/cursor"}}
                    - {unit: b, shape: dump, path: /b, rows: {decoder: json_array},
                       paginate: {type: cursor, from: "header:X-Next", into: "header:X-Cursor"}}
                    - {unit: c, shape: dump, path: /c, method: POST, rows: {decoder: json_array},
                       paginate: {type: cursor, from: "header:X-Next", into: "body:cursor"}}
                """))
        .containsExactly(
            "config.yaml:6:62: sources.rest.lab.profile.endpoints[0].paginate.into: body: applies"
                + " to method: POST only (a GET has no body to carry the cursor)",
            "config.yaml:8:62: sources.rest.lab.profile.endpoints[1].paginate.into: must be"
                + " query:name, body:/pointer (a POST listing's JSON body), body_replace:/pointer"
                + " (the next body is the token alone) or path, e.g. query:cursor",
            "config.yaml:10:62: sources.rest.lab.profile.endpoints[2].paginate.into: body: needs"
                + " the JSON pointer of a field of the request body, e.g. body:/cursor");
  }

  @Test
  void aJoinWithoutABodyCursorOrEmptyIsRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
                       paginate: {type: cursor, from: "header:X-Next", into: "query:c", join: ","}}
                    - {unit: b, shape: dump, path: /b, method: POST,
                       rows: {decoder: json_at, at: /items},
                       paginate: {type: cursor, from: "body:/n", into: "body_replace:", join: ""}}
                """))
        .containsExactly(
            "config.yaml:6:79: sources.rest.lab.profile.endpoints[0].paginate.join: joins a list"
                + " cursor read from the body (from: body:/pointer); it must not be empty, e.g. \",\"",
            "config.yaml:9:56: sources.rest.lab.profile.endpoints[1].paginate.into: body_replace:"
                + " needs the JSON pointer of a field of the request body, e.g. body:/cursor",
            "config.yaml:9:79: sources.rest.lab.profile.endpoints[1].paginate.join: joins a list"
                + " cursor read from the body (from: body:/pointer); it must not be empty, e.g. \",\"");
  }

  @Test
  void aListCursorWithoutJoinFailsThePageAndAListOfObjectsWithJoinToo() throws Exception {
    try (ApiServer server = new ApiServer()) {
      server.on("/a", ApiServer.ok("{\"items\":[{\"id\":1}],\"next\":[\"x\",\"y\"]}"));
      server.on("/b", ApiServer.ok("{\"items\":[{\"id\":1}],\"next\":[{\"x\":1}]}"));
      RestConnection connection =
          RestFixture.connection(
              """
              topic: lab
              profile:
                base_url: "%s"
                endpoints:
                  - {unit: a, shape: dump, path: /a, rows: {decoder: json_at, at: /items},
                     paginate: {type: cursor, from: "body:/next", into: "query:n"}}
                  - {unit: b, shape: dump, path: /b, rows: {decoder: json_at, at: /items},
                     paginate: {type: cursor, from: "body:/next", into: "query:n", join: ","}}
              """
                  .formatted(server.url()));

      assertThat(RestFixture.read(connection, "a").abortReason())
          .hasValueSatisfying(
              r -> assertThat(r).contains("is a JSON array, not a string or a number"));
      assertThat(RestFixture.read(connection, "b").abortReason())
          .hasValueSatisfying(
              r -> assertThat(r).contains("the list cursor at /next holds a JSON object"));
    }
  }

  @Test
  void anEmptyListCursorEndsTheListing() throws Exception {
    try (ApiServer server = new ApiServer()) {
      server.on("/a", ApiServer.ok("{\"items\":[{\"id\":1}],\"next\":[]}"));
      RestConnection connection =
          RestFixture.connection(
              """
              topic: lab
              profile:
                base_url: "%s"
                endpoints:
                  - {unit: a, shape: dump, path: /a, rows: {decoder: json_at, at: /items},
                     paginate: {type: cursor, from: "body:/next", into: "query:n", join: ","}}
              """
                  .formatted(server.url()));

      assertThat(RestFixture.read(connection, "a").shape()).containsExactly("begin", "row", "end");
      assertThat(server.paths()).containsExactly("/a");
    }
  }
}
