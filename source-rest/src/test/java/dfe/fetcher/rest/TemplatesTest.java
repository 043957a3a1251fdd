package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Templates as the API sees them: CEL expressions rendered into query strings, paths and JSON
 * bodies (typed values), endpoint {@code vars} and profile {@code defaults}, user input always
 * percent-encoded, and the load refusals that name the setting.
 */
class TemplatesTest {

  /** 08:05:09.123 UTC: the window is [now - 1h, now), cut to seconds by rfc3339_secs. */
  private static final Instant NOW = Instant.parse("2026-12-01T08:05:09.123Z");

  private static final TimeZone JVM_ZONE = TimeZone.getDefault();

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
    TimeZone.setDefault(JVM_ZONE);
  }

  private RecordingSink readTail(RestConnection connection, String unit) throws Exception {
    return RestFixture.read(connection, unit, Optional.empty(), new MutableClock(NOW));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Pacific/Kiritimati", "America/Los_Angeles"})
  void aWindowsBoundsAreFormattedInUtcUnlessAZoneIsNamed(String jvmZone) throws Exception {
    TimeZone.setDefault(TimeZone.getTimeZone(jvmZone));
    server.on("/v1/events", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s"}
            profile:
              base_url: "{{ vars.host }}/v1"
              endpoints:
                - unit: events
                  shape: tail
                  path: /events
                  query:
                    since: "{{ window.start }}"
                    day: "{{ format_time(window.start, '%%Y-%%m-%%d') }}"
                    hour: "{{ format_time(window.start, '%%H') }}"
                    from_ms: "{{ epoch_millis(window.start) }}"
                    until_s: "{{ epoch_secs(window.end) }}"
                    until: "{{ rfc3339_millis(window.end) }}"
                    berlin: "{{ rfc3339_secs(window.end, 'Europe/Berlin') }}"
                    tokyo_day: "{{ format_time(window.end, '%%d %%H:%%M', 'Asia/Tokyo') }}"
                  rows: {decoder: json_array}
                  window: {format: rfc3339_secs, lookback: 1h}
            """
                .formatted(server.url()));

    readTail(connection, "events");

    assertThat(server.paths())
        .containsExactly(
            "/v1/events?since=2026-12-01T07%3A05%3A09Z&day=2026-12-01&hour=07"
                + "&from_ms=1796108709000&until_s=1796112309"
                + "&until=2026-12-01T08%3A05%3A09.000Z&berlin=2026-12-01T09%3A05%3A09%2B01%3A00"
                + "&tokyo_day=01+17%3A05");
  }

  @Test
  void aJsonBodyKeepsTheTypeOfAValueThatIsOneExpression() throws Exception {
    server.on("/v1/search", ok("{\"hits\":[]}"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", limit: "250", mode: live, ids: "a,b"}
            profile:
              base_url: "{{ vars.host }}/v1"
              endpoints:
                - unit: events
                  shape: tail
                  method: POST
                  path: /search
                  body:
                    size: "{{ int(vars.limit) }}"
                    live: "{{ vars.mode == 'live' }}"
                    ids: "{{ vars.ids.split(',') }}"
                    range: {gte: "{{ epoch_secs(window.start) }}", lt: "{{ window.end }}"}
                    label: "top {{ int(vars.limit) }}"
                    limit_text: "{{ vars.limit }}"
                    ratio: "{{ double(vars.limit) / 1000.0 }}"
                  rows: {decoder: json_at, at: /hits}
                  window: {format: rfc3339_secs, lookback: 1h}
            """
                .formatted(server.url()));

    readTail(connection, "events");

    assertThat(server.requests().get(0).body())
        .isEqualTo(
            "{\"size\":250,\"live\":true,\"ids\":[\"a\",\"b\"],"
                + "\"range\":{\"gte\":1796108709,\"lt\":\"2026-12-01T08:05:09Z\"},"
                + "\"label\":\"top 250\",\"limit_text\":\"250\",\"ratio\":0.25}");
  }

  @Test
  void endpointVarsAndProfileDefaultsAreMergedEndpointOverDefaults() throws Exception {
    server.on("/v1/users", ok("[]"));
    server.on("/v1/groups", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", size: "50"}
            profile:
              base_url: "{{ vars.host }}/v1"
              defaults:
                vars: {page_size: "{{ int(vars.size) }}", kind: "{{ unit.name }}"}
                query: {limit: "{{ vars.page_size }}", kind: "{{ vars.kind }}"}
                headers: {X-Team: blue}
                rows: {decoder: json_array}
                max_pages: 3
              endpoints:
                - unit: users
                  shape: dump
                  path: /users
                - unit: groups
                  shape: dump
                  path: /groups
                  vars:
                    page_size_base: "{{ int(vars.size) }}"
                    page_size: "{{ vars.page_size_base * 2 }}"
                  query: {sort: "{{ vars.page_size > 50 ? 'name' : 'id' }}"}
                  headers: {X-Team: red}
                  max_pages: 7
            """
                .formatted(server.url()));

    RestFixture.read(connection, "users");
    RestFixture.read(connection, "groups");

    assertThat(server.paths())
        .containsExactly(
            "/v1/users?limit=50&kind=users", "/v1/groups?limit=100&kind=groups&sort=name");
    assertThat(server.requests().get(0).header("X-Team")).isEqualTo("blue");
    assertThat(server.requests().get(1).header("X-Team")).isEqualTo("red");
    assertThat(connection.endpoints()).extracting(e -> e.maxPages()).containsExactly(3, 7);
  }

  @Test
  void aComputedVariableKeepsItsTypeInAJsonBody() throws Exception {
    server.on("/v1/search", ok("{\"hits\":[]}"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", size: "40"}
            profile:
              base_url: "{{ vars.host }}/v1"
              defaults:
                vars: {page_size: "{{ int(vars.size) + 10 }}"}
              endpoints:
                - unit: hits
                  shape: dump
                  method: POST
                  path: /search
                  vars: {tags: "{{ ['x', unit.name] }}"}
                  body: {size: "{{ vars.page_size }}", tags: "{{ vars.tags }}", text: "{{ vars.size }}"}
                  rows: {decoder: json_at, at: /hits}
            """
                .formatted(server.url()));

    RestFixture.read(connection, "hits");

    assertThat(server.requests().get(0).body())
        .isEqualTo("{\"size\":50,\"tags\":[\"x\",\"hits\"],\"text\":\"40\"}");
  }

  @Test
  void valuesFromTheInstanceArePercentEncodedInThePathAndTheQuery() throws Exception {
    server.on("/v1/a%20b/c/items", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s", team: "a b/c", q: "x&y=1#z?", evil: "../admin?x=1"}
            profile:
              base_url: "{{ vars.host }}/v1"
              endpoints:
                - unit: items
                  shape: dump
                  path: "/{{ vars.team }}/items"
                  query:
                    q: "{{ vars.q }}"
                    upper: "{{ vars.q.upperAscii() }}"
                    cut: "{{ vars.evil }}"
                  rows: {decoder: json_array}
            """
                .formatted(server.url()));

    RestFixture.read(connection, "items");

    assertThat(server.paths())
        .containsExactly(
            "/v1/a%20b/c/items?q=x%26y%3D1%23z%3F&upper=X%26Y%3D1%23Z%3F&cut=..%2Fadmin%3Fx%3D1");
  }

  @Test
  void aTemplateThatFailsOnAWindowsValuesFailsTheTickNamingItAndCommitsNothing() throws Exception {
    server.on("/v1/events", ok("[]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {host: "%s"}
            profile:
              base_url: "{{ vars.host }}/v1"
              endpoints:
                - unit: events
                  shape: tail
                  path: /events
                  query:
                    since: "{{ window.start }}"
                    shard: "{{ window.start.getHours() > 0 ? 1 / 0 : 1 }}"
                  rows: {decoder: json_array}
                  window: {format: rfc3339_secs, lookback: 1h}
            """
                .formatted(server.url()));

    assertThatThrownBy(() -> readTail(connection, "events"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(
            "lab.events: a template of sources.rest.lab.profile.endpoints[0]: '{{"
                + " window.start.getHours() > 0 ? 1 / 0 : 1 }}' cannot be evaluated: ")
        .hasMessageContaining("/ by zero");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aTemplateThatDoesNotCompileReadsAnUnknownNameOrMistypesIsRefusedAtItsPath() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            vars: {host: "http://127.0.0.1:1", limit: "ten"}
            profile:
              base_url: "{{ vars.host }}"
              defaults:
                vars: {size: "{{ int(vars.limit) }}"}
              endpoints:
                - unit: items
                  shape: dump
                  path: "/items/{{ vars.host.( }}"
                  vars: {host: x, twice: "{{ vars.size * 2 }}", later: "{{ vars.nope }}"}
                  query:
                    a: "{{ vars.limit + 1 }}"
                    b: "{{ env.HOME }}"
                    c: "{{ vars.host.split('/') }}"
                  rows: {decoder: json_array}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:8:13: sources.rest.lab.profile.endpoints[0].vars: vars.size: '{{"
                + " int(vars.limit) }}' cannot be evaluated: evaluation error at template:3: For"
                + " input string: \"ten\" (with the instance's vars)",
            "config.yaml:10:13: sources.rest.lab.profile.endpoints[0].path: '{{ vars.host.( }}'"
                + " does not parse: no viable alternative at input '.('"
                + " (character 11)",
            "config.yaml:11:14: sources.rest.lab.profile.endpoints[0].vars.host: is a variable of"
                + " the connection (the profile's vars or sources.rest.lab.vars); give the"
                + " endpoint's variable another name",
            "config.yaml:11:60: sources.rest.lab.profile.endpoints[0].vars.later: reads {{"
                + " vars.nope }}, which is not defined; set nope in sources.rest.lab.vars"
                + " (defined: host, limit, size, twice)",
            "config.yaml:13:12: sources.rest.lab.profile.endpoints[0].query.a: '{{ vars.limit + 1"
                + " }}' does not compile: found no matching overload for '_+_' applied to"
                + " '(string, int)' (candidates: (int, int),(uint, uint),(double,"
                + " double),(string, string),(bytes, bytes),(list(%A0), list(%A0)),"
                + "(google.protobuf.Timestamp, google.protobuf.Duration),"
                + "(google.protobuf.Duration, google.protobuf.Timestamp),"
                + "(google.protobuf.Duration, google.protobuf.Duration)) (character 12)",
            "config.yaml:14:12: sources.rest.lab.profile.endpoints[0].query.b: '{{ env.HOME }}' is"
                + " not a template variable; one of vars.<name>, window.start, window.end,"
                + " unit.name",
            "config.yaml:15:12: sources.rest.lab.profile.endpoints[0].query.c: '{{"
                + " vars.host.split('/') }}' yields list, which cannot be written as text (a"
                + " string, number, bool or timestamp)");
  }
}
