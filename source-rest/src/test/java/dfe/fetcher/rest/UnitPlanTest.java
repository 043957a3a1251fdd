package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.SourceUnit;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One endpoint run under several unit names ({@code units.<name>.endpoint}, the profile's or the
 * instance's), each unit's {@code vars} over the connection's wherever a template reads {@code
 * vars.*}: the path, the query, a prelude, {@code base_url}; and the mistakes refused at load.
 */
class UnitPlanTest {

  @AutoClose private final ApiServer server = ApiServer.started();
  @AutoClose private final ApiServer other = ApiServer.started();

  @BeforeEach
  void start() throws Exception {
    server.on("/start/a", ok("{}"));
    server.on("/start/b", ok("{}"));
    server.on("/start/c", ok("{}"));
    other.on("/start/r", ok("{}"));
  }

  /** A profile whose endpoint {@code feed} runs as units {@code alpha} and {@code beta}. */
  private String yaml(String instance) {
    return """
        topic: lab
        vars: {api: "%s"}
        auth: {mode: bearer, token: env:LAB_TOKEN}
        profile:
          base_url: "{{ vars.api }}"
          vars: {page_size: "10"}
          endpoints:
            - unit: feed
              shape: dump
              path: "/feeds/{{ vars.feed }}"
              vars: {limit: "{{ vars.page_size }}"}
              query: {limit: "{{ vars.limit }}"}
              rows: {decoder: json_array}
              prelude:
                - path: "/start/{{ vars.feed }}"
          units:
            alpha: {endpoint: feed, vars: {feed: a}}
            beta: {endpoint: feed, vars: {feed: b}}
        %s
        """
        .formatted(server.url(), instance);
  }

  private RestConnection connection(String instance) {
    return RestFixture.connection(yaml(instance), Map.of("LAB_TOKEN", "tok-1"));
  }

  @Test
  void theProfilesUnitsRunTheEndpointUnderTheirNamesAndTheEndpointNotUnderItsOwn()
      throws Exception {
    server.on("/feeds/b", ok("[{\"n\":2}]"));
    RestConnection connection = connection("");

    RecordingSink sink = RestFixture.read(connection, "beta");

    assertThat(connection.units()).extracting(SourceUnit::unit).containsExactly("alpha", "beta");
    assertThat(sink.records()).containsExactly("{\"n\":2}");
    assertThat(server.requests())
        .extracting(seen -> seen.method() + " " + seen.pathAndQuery())
        .containsExactly("POST /start/b", "GET /feeds/b?limit=10");
  }

  @Test
  void anInstanceThatNamesAnEndpointRunsExactlyTheUnitsItLists() throws Exception {
    server.on("/feeds/c", ok("[{\"n\":3}]"));
    server.on("/feeds/a", ok("[{\"n\":1}]"));
    RestConnection connection =
        connection("units: {gamma: {endpoint: feed, vars: {feed: c}}, alpha: {}}");

    RecordingSink gamma = RestFixture.read(connection, "gamma");
    RecordingSink alpha = RestFixture.read(connection, "alpha");

    assertThat(connection.units()).extracting(SourceUnit::unit).containsExactly("gamma", "alpha");
    assertThat(gamma.records()).containsExactly("{\"n\":3}");
    assertThat(alpha.records()).containsExactly("{\"n\":1}");
    assertThat(server.paths())
        .containsExactly("/start/c", "/feeds/c?limit=10", "/start/a", "/feeds/a?limit=10");
  }

  @Test
  void aUnitInstantiatingAProfileUnitKeepsItsVarsUnderItsOwn() throws Exception {
    server.on("/feeds/a", ok("[]"));
    RestConnection connection =
        connection("units: {alpha_wide: {endpoint: alpha, vars: {page_size: \"500\"}}}");

    RestFixture.read(connection, "alpha_wide");

    assertThat(server.paths()).containsExactly("/start/a", "/feeds/a?limit=500");
  }

  @Test
  void aUnitsVarsReachItsBaseUrlAndItsCredentialsGoThere() throws Exception {
    other.on("/feeds/r", ok("[{\"n\":9}]"));
    RestConnection connection =
        connection(
            "units: {remote: {endpoint: feed, vars: {feed: r, api: \"" + other.url() + "\"}}}");

    RecordingSink sink = RestFixture.read(connection, "remote");

    assertThat(sink.records()).containsExactly("{\"n\":9}");
    assertThat(server.requests()).isEmpty();
    assertThat(other.paths()).containsExactly("/start/r", "/feeds/r?limit=10");
    assertThat(other.requests())
        .allSatisfy(seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer tok-1"));
  }

  @Test
  void aUnitsVarGoesOverTheEndpointsComputedVariableOfTheSameName() throws Exception {
    server.on("/feeds/a", ok("[]"));
    RestConnection connection = connection("units: {alpha: {vars: {limit: \"3\"}}}");

    RestFixture.read(connection, "alpha");

    assertThat(server.paths()).containsExactly("/start/a", "/feeds/a?limit=3");
  }

  @Test
  void anEndpointOrUnitThatNamesNoneOfTheProfilesIsRefusedAtItsPlace() {
    assertThat(
            RestFixture.problems(
                yaml(
                    "units: {gamma: {endpoint: fed}, delta: {enabled: true}, \"e.1\": {endpoint: feed, vars: {feed: e}}}"),
                Map.of("LAB_TOKEN", "t")))
        .containsExactly(
            "config.yaml:19:27: sources.rest.lab.units.gamma.endpoint: the profile has no"
                + " endpoint 'fed'; its endpoints: feed",
            "config.yaml:19:40: sources.rest.lab.units.delta: the profile has no unit 'delta';"
                + " name the endpoint it runs under endpoint: (one of feed)",
            "config.yaml:19:64: sources.rest.lab.units.e.1: must not contain '.'");
  }

  @Test
  void aProfileUnitNamedLikeAnEndpointOrNamingNoEndpointIsRefused() {
    String yaml =
        yaml("")
            .replace(
                "beta: {endpoint: feed, vars: {feed: b}}",
                "feed: {endpoint: feed}\n    beta: {endpoint: missing}");

    assertThat(RestFixture.problems(yaml, Map.of("LAB_TOKEN", "t")))
        .containsExactly(
            "config.yaml:18:11: sources.rest.lab.profile.units.feed: is the name of one of the"
                + " profile's endpoints; give the unit another name",
            "config.yaml:19:22: sources.rest.lab.profile.units.beta.endpoint: the profile has no"
                + " endpoint 'missing'; its endpoints: feed");
  }

  @Test
  void aMistakeInAnEndpointRunUnderSeveralUnitsIsReportedOnce() {
    String yaml = yaml("").replace("rows: {decoder: json_array}", "rows: {decoder: xml}");

    assertThat(RestFixture.problems(yaml, Map.of("LAB_TOKEN", "t")))
        .containsExactly(
            "config.yaml:13:23: sources.rest.lab.profile.endpoints[0].rows.decoder: unknown"
                + " decoder 'xml'; one of json_array, ndjson, json_at, document, csv, lines, json");
  }
}
