package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code json_at} page without the rows' pointer is an error page answered with 200, not an empty
 * page: it fails the listing (no {@code end}, so a consumer deletes nothing), unless the endpoint
 * says the rows may be absent ({@code rows.allow_missing}).
 */
class MissingRowsTest {

  private static final String ERROR_PAGE = "{\"error\":\"upstream unavailable\"}";

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
          base_url: "%s/v1"
          endpoints:
            - unit: assets
              shape: dump
              path: /assets
              rows: %s
              paginate: %s
        """
            .formatted(server.url(), rows, paginate));
  }

  private static ApiServer.Answer byQuery(Map<String, ApiServer.Answer> answers) {
    return (HttpExchange exchange) -> {
      String query = exchange.getRequestURI().getRawQuery();
      answers.getOrDefault(query == null ? "" : query, ok(ERROR_PAGE)).answer(exchange);
    };
  }

  private String missing(String query) {
    return "lab.assets: GET "
        + server.url()
        + "/v1/assets"
        + query
        + ": the body has nothing at /items (rows.at); set rows.allow_missing: true if the API"
        + " leaves it out of an empty page";
  }

  @Test
  void aCursorPageWithoutTheRowsFailsTheDump() throws Exception {
    server.on("/v1/assets", byQuery(Map.of("", ok("{\"items\":[{\"id\":1}],\"next\":\"c2\"}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items}",
                "{type: cursor, from: \"body:/next\", into: \"query:cursor\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason()).hasValue(missing("?cursor=c2"));
  }

  @Test
  void aPageNumberPageWithoutTheRowsFailsTheDump() throws Exception {
    server.on("/v1/assets", byQuery(Map.of("p=1", ok("{\"items\":[{\"id\":1}]}"))));

    RecordingSink sink =
        RestFixture.read(
            dump("{decoder: json_at, at: /items}", "{type: page_number, param: p}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason()).hasValue(missing("?p=2"));
  }

  @Test
  void anOffsetPageWithoutTheRowsFailsTheDump() throws Exception {
    server.on("/v1/assets", byQuery(Map.of("o=0&n=5", ok("{\"items\":[{\"id\":1}]}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items}",
                "{type: offset, param: o, limit_param: n, page_size: 5}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason()).hasValue(missing("?o=1&n=5"));
  }

  @Test
  void aNullRowsPointerFailsTheDumpToo() throws Exception {
    server.on("/v1/assets", ok("{\"items\":null}"));

    RecordingSink sink =
        RestFixture.read(dump("{decoder: json_at, at: /items}", "{type: none}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
  }

  @Test
  void withAllowMissingAPageWithoutTheRowsIsAnEmptyPage() throws Exception {
    server.on("/v1/assets", byQuery(Map.of("p=1", ok("{\"items\":[{\"id\":1}]}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items, allow_missing: true}",
                "{type: page_number, param: p}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/v1/assets?p=1", "/v1/assets?p=2");
  }

  @Test
  void withAllowMissingACursorListingEndsOnAPageWithoutRowsOrToken() throws Exception {
    server.on("/v1/assets", byQuery(Map.of("", ok("{\"items\":[{\"id\":1}],\"next\":\"c2\"}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items, allow_missing: true}",
                "{type: cursor, from: \"body:/next\", into: \"query:cursor\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
  }

  @Test
  void allowMissingAppliesToJsonAtOnly() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: assets
                      shape: dump
                      path: /assets
                      rows: {decoder: json_array, allow_missing: true}
                """))
        .containsExactly(
            "config.yaml:8:50: sources.rest.lab.profile.endpoints[0].rows.allow_missing: applies"
                + " to decoder json_at only");
  }
}
