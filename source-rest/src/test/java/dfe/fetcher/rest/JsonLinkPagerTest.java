package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code json_link}: the next page's URL at a pointer of the body, followed as a {@code Link}
 * header is (credentials only to their origin); nothing, null or "" there ends, anything else that
 * is not an http(s) URL fails the page, and the same URL twice is a loop.
 */
class JsonLinkPagerTest {

  private ApiServer server;
  private ApiServer other;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    other = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
    other.close();
  }

  private RestConnection dump(String paginate) {
    return dump(paginate, "");
  }

  private RestConnection dump(String paginate, String auth) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: env:LAB_TOKEN%s}
        profile:
          base_url: "%s/v1"
          headers: {X-Api-Key: k-1, Accept: application/json}
          endpoints:
            - unit: assets
              shape: dump
              path: /assets
              rows: {decoder: json_at, at: /data}
              paginate: %s
        """
            .formatted(auth, server.url(), paginate),
        Map.of("LAB_TOKEN", "tok-1"));
  }

  @Test
  void followsAbsoluteAndRelativeLinksUntilTheLinkIsNull() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "",
                ok(
                    "{\"data\":[{\"id\":1}],\"links\":{\"next\":\""
                        + server.url()
                        + "/v1/assets?page=2\"}}"),
                "page=2",
                ok("{\"data\":[{\"id\":2}],\"links\":{\"next\":\"assets?page=3\"}}"),
                "page=3",
                ok("{\"data\":[{\"id\":3}],\"links\":{\"next\":null}}"))));

    RecordingSink sink =
        RestFixture.read(dump("{type: json_link, next_at: /links/next}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths())
        .containsExactly("/v1/assets", "/v1/assets?page=2", "/v1/assets?page=3");
    assertThat(server.requests())
        .allMatch(seen -> "Bearer tok-1".equals(seen.header("Authorization")));
  }

  @Test
  void aLinkAfterTheRowsIsReadAsTheParserPassesIt() throws Exception {
    server.on(
        "/v1/assets",
        ApiServer.byQuery(
            Map.of(
                "", ok("{\"data\":[{\"id\":1}],\"next\":\"/v1/assets?p=2\"}"),
                "p=2", ok("{\"next\":\"\",\"data\":[{\"id\":2}]}"))));

    RecordingSink sink = RestFixture.read(dump("{type: json_link, next_at: /next}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/v1/assets", "/v1/assets?p=2");
  }

  @Test
  void aLinkOnAnotherOriginIsFollowedWithoutCredentials() throws Exception {
    server.on("/v1/assets", ok("{\"data\":[{\"id\":1}],\"next\":\"" + other.url() + "/m?p=2\"}"));
    other.on("/m", ok("{\"data\":[{\"id\":2}]}"));

    RecordingSink sink = RestFixture.read(dump("{type: json_link, next_at: /next}"), "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-1");
    assertThat(server.requests().get(0).header("X-Api-Key")).isEqualTo("k-1");
    ApiServer.Seen elsewhere = other.requests().get(0);
    assertThat(elsewhere.pathAndQuery()).isEqualTo("/m?p=2");
    assertThat(elsewhere.header("Authorization")).isNull();
    assertThat(elsewhere.header("X-Api-Key")).isNull();
    assertThat(elsewhere.header("Accept")).isEqualTo("application/json");
  }

  @Test
  void withOtherOriginsRefuseALinkOnAnotherOriginFailsTheDumpUnrequested() throws Exception {
    server.on("/v1/assets", ok("{\"data\":[{\"id\":1}],\"next\":\"" + other.url() + "/m?p=2\"}"));
    other.on("/m", ok("{\"data\":[{\"id\":2}]}"));

    RecordingSink sink =
        RestFixture.read(
            dump("{type: json_link, next_at: /next}", ", other_origins: refuse"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .contains(other.url() + "/m")
        .contains("sources.rest.lab.auth.other_origins is refuse");
    assertThat(other.requests()).isEmpty();
  }

  @Test
  void aLinkToThePageItselfIsALoopThatFailsTheDump() throws Exception {
    server.on("/v1/assets", ok("{\"data\":[{\"id\":1}],\"next\":\"/v1/assets\"}"));

    RecordingSink sink = RestFixture.read(dump("{type: json_link, next_at: /next}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: pagination loops: page 2 would be GET "
                + server.url()
                + "/v1/assets again, already requested in this dump");
    assertThat(server.paths()).containsExactly("/v1/assets");
  }

  @Test
  void aLinkThatIsNotAStringFailsThePage() throws Exception {
    server.on("/v1/assets", ok("{\"data\":[{\"id\":1}],\"next\":{\"href\":\"/v1/assets?p=2\"}}"));

    RecordingSink sink = RestFixture.read(dump("{type: json_link, next_at: /next}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/v1/assets: paginate.next_at: /next is a JSON object, not a URL");
  }

  @Test
  void aLinkThatIsNotAnHttpUrlFailsThePage() throws Exception {
    server.on("/v1/assets", ok("{\"data\":[{\"id\":1}],\"next\":\"ftp://example.com/p2\"}"));

    RecordingSink sink = RestFixture.read(dump("{type: json_link, next_at: /next}"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason().orElseThrow())
        .endsWith("paginate.next_at: /next is not an http or https URL with a host");
    assertThat(server.paths()).containsExactly("/v1/assets");
  }

  @Test
  void nextAtIsRequiredAndMustBeAPointer() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_at, at: /data},
                       paginate: {type: json_link}}
                    - {unit: b, shape: dump, path: /b, rows: {decoder: json_at, at: /data},
                       paginate: {type: json_link, next_at: next}}
                """))
        .containsExactly(
            "config.yaml:6:18: sources.rest.lab.profile.endpoints[0].paginate.next_at: is"
                + " required",
            "config.yaml:8:45: sources.rest.lab.profile.endpoints[1].paginate.next_at: is not a"
                + " JSON pointer (e.g. /items or /data/0/error): Invalid input: JSON Pointer"
                + " expression must start with '/': \"next\"");
  }

  @Test
  void aLinkInsideTheRowsIsRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: /a, rows: {decoder: json_at, at: /data},
                       paginate: {type: json_link, next_at: /data/0/next}}
                """))
        .containsExactly(
            "config.yaml:6:45: sources.rest.lab.profile.endpoints[0].paginate.next_at: points into"
                + " the rows array at /data (rows.at), which json_at streams and does not keep;"
                + " point to a value beside the rows");
  }
}
