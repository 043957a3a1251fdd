package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code offset} ends at {@code total_at} or, with {@code short_page_ends}, on a short page, and
 * {@code page_number} at {@code total_pages_at}: on the last page, not one request later. A total
 * that is missing or not a count, or an empty page before it, fails the dump.
 */
class TotalsTest {

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
  private static final String OFFSET_TOTAL =
      "{type: offset, param: o, limit_param: n, page_size: 2, total_at: /meta/total}";

  @Test
  void offsetEndsOnThePageThatReachesTheTotal() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "o=0&n=2", ok("{\"items\":[{\"id\":1},{\"id\":2}],\"meta\":{\"total\":3}}"),
                "o=2&n=2", ok("{\"meta\":{\"total\":3},\"items\":[{\"id\":3}]}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets?o=0&n=2", "/assets?o=2&n=2");
  }

  @Test
  void offsetWithAnEmptyListingEndsOnTheFirstPage() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(Map.of("o=0&n=2", ok("{\"items\":[],\"meta\":{\"total\":0}}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets");

    assertThat(sink.shape()).containsExactly("begin", "end");
    assertThat(server.paths()).containsExactly("/assets?o=0&n=2");
  }

  @Test
  void aTotalThatIsNotANumberFailsTheDump() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of("o=0&n=2", ok("{\"items\":[{\"id\":1}],\"meta\":{\"total\":\"3\"}}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets?o=0&n=2: paginate.total_at: /meta/total is a string, not a count");
  }

  @Test
  void aTotalThatIsAFractionOrMissingFailsTheDump() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "o=0&n=2", ok("{\"items\":[{\"id\":1},{\"id\":2}],\"meta\":{\"total\":4}}"),
                "o=2&n=2", ok("{\"items\":[{\"id\":3},{\"id\":4}],\"meta\":{}}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("/assets?o=2&n=2: paginate.total_at: the body has nothing at /meta/total");

    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of("o=0&n=2", ok("{\"items\":[{\"id\":1}],\"meta\":{\"total\":2.5}}"))));
    assertThat(RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets").abortReason().orElseThrow())
        .endsWith(
            "paginate.total_at: /meta/total is a number but not a whole number from 0, not a"
                + " count");
  }

  @Test
  void anEmptyPageBeforeTheTotalFailsTheDump() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "o=0&n=2", ok("{\"items\":[{\"id\":1},{\"id\":2}],\"meta\":{\"total\":5}}"),
                "o=2&n=2", ok("{\"items\":[],\"meta\":{\"total\":5}}"))));

    RecordingSink sink = RestFixture.read(dump(ITEMS, OFFSET_TOTAL), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("paginate.total_at: the page at offset 2 is empty, but the total is 5");
  }

  @Test
  void withShortPageEndsAShortPageEndsTheListing() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "o=0&n=2", ok("[{\"id\":1},{\"id\":2}]"),
                "o=2&n=2", ok("[{\"id\":3}]"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_array}",
                "{type: offset, param: o, limit_param: n, page_size: 2, short_page_ends: true}"),
            "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets?o=0&n=2", "/assets?o=2&n=2");
  }

  @Test
  void withShortPageEndsAPageLongerThanTheLimitFailsTheDump() throws Exception {
    server.on(
        "/assets", ApiServer.byQuery(Map.of("o=0&n=2", ok("[{\"id\":1},{\"id\":2},{\"id\":3}]"))));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_array}",
                "{type: offset, param: o, limit_param: n, page_size: 2, short_page_ends: true}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith(
            "paginate.short_page_ends: the page holds 3 rows, more than page_size 2, so the API"
                + " does not honour the limit and a short page cannot tell the end");
  }

  @Test
  void pageNumberEndsOnTheLastPageTheTotalGives() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("{\"items\":[{\"id\":1}],\"pages\":2}"),
                "p=2", ok("{\"items\":[{\"id\":2}],\"pages\":2}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(ITEMS, "{type: page_number, param: p, total_pages_at: /pages}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths()).containsExactly("/assets?p=1", "/assets?p=2");
  }

  @Test
  void aTotalPagesThatIsMissingOrAStringFailsTheDumpRatherThanReadingOn() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("{\"items\":[{\"id\":1}],\"pages\":\"2\"}"),
                "p=2", ok("{\"items\":[{\"id\":2}]}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(ITEMS, "{type: page_number, param: p, total_pages_at: /pages}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("/assets?p=1: paginate.total_pages_at: /pages is a string, not a count");
    assertThat(server.paths()).containsExactly("/assets?p=1");
  }

  @Test
  void anEmptyPageBeforeTheLastPageFailsTheDump() throws Exception {
    server.on(
        "/assets",
        ApiServer.byQuery(
            Map.of(
                "p=1", ok("{\"items\":[{\"id\":1}],\"pages\":3}"),
                "p=2", ok("{\"items\":[],\"pages\":3}"))));

    RecordingSink sink =
        RestFixture.read(
            dump(ITEMS, "{type: page_number, param: p, total_pages_at: /pages}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("paginate.total_pages_at: page 2 is empty, but the body gives 3 pages");
  }

  @Test
  void shortPageEndsWithoutALimitParamIsRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
                       paginate: {type: offset, param: o, page_size: 2, short_page_ends: true}}
                """))
        .containsExactly(
            "config.yaml:6:74: sources.rest.lab.profile.endpoints[0].paginate.short_page_ends:"
                + " needs limit_param: a page is short only against a limit the request sends");
  }
}
