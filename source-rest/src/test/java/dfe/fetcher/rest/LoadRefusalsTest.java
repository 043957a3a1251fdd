package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Endpoints that could only ever read wrong are refused at load, naming the config path: a tail
 * whose requests never use its window, a {@code settle} that leaves no window, a {@code path} that
 * is not a URI path.
 */
class LoadRefusalsTest {

  private static String tail(String endpoint) {
    return """
        topic: lab
        profile:
          base_url: "http://127.0.0.1:1"
          endpoints:
            - unit: events
              shape: tail
              rows: {decoder: json_array}
        %s
        """
        .formatted(endpoint.indent(6));
  }

  @Test
  void aTailWhoseRequestsNeverReadTheWindowIsRefused() {
    assertThat(
            RestFixture.problems(
                tail(
                    """
                    path: /events
                    query: {sort: asc}
                    window: {format: rfc3339_secs, lookback: 1h}""")))
        .containsExactly(
            "config.yaml:10:15: sources.rest.lab.profile.endpoints[0].window: no request of this"
                + " tail endpoint reads {{ window.start }} or {{ window.end }} (path, query,"
                + " headers, body), so every window would fetch the same listing; filter by"
                + " them, or make it shape: dump");
  }

  @Test
  void aTailReadingTheWindowInAHeaderOrABodyIsFine() {
    assertThat(
            RestFixture.problems(
                tail(
                    """
                    path: /events
                    headers: {X-Since: "{{ window.start }}"}
                    window: {format: rfc3339_secs, lookback: 1h}""")))
        .isEmpty();
    assertThat(
            RestFixture.problems(
                tail(
                    """
                    path: /events
                    method: POST
                    body: {filter: {until: "{{ window.end }}"}}
                    window: {format: rfc3339_secs, lookback: 1h}""")))
        .isEmpty();
  }

  @Test
  void aSettleNotShorterThanTheLookbackIsRefused() {
    assertThat(
            RestFixture.problems(
                tail(
                    """
                    path: /events
                    query: {since: "{{ window.start }}"}
                    window: {format: rfc3339_secs, lookback: 1h, settle: 60m}""")))
        .containsExactly(
            "config.yaml:10:60: sources.rest.lab.profile.endpoints[0].window.settle: 1h is not"
                + " shorter than lookback 1h, so the first window would be empty and nothing"
                + " ever read");
  }

  @Test
  void aUnitsSettleIsCheckedAgainstTheLookbackItRunsWith() {
    String yaml =
        tail(
                """
                path: /events
                query: {since: "{{ window.start }}"}
                window: {format: rfc3339_secs, lookback: 1h}""")
            + "units: {events: {settle: 2h}}\n";

    assertThat(RestFixture.problems(yaml))
        .containsExactly(
            "config.yaml:12:26: sources.rest.lab.units.events.settle: 2h is not shorter than"
                + " lookback 1h, so the first window would be empty and nothing ever read");
  }

  @Test
  void aPathThatIsNotAUriPathIsRefused() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: "/items?page=1", rows: {decoder: json_array}}
                    - {unit: b, shape: dump, path: "/my items/{{ vars.x }}", rows: {decoder: json_array}}
                  vars: {x: y}
                """))
        .containsExactly(
            "config.yaml:5:36: sources.rest.lab.profile.endpoints[0].path: '?' (character 7) is"
                + " not allowed in a URI path; put query parameters under query",
            "config.yaml:6:36: sources.rest.lab.profile.endpoints[1].path: ' ' (character 4) is"
                + " not allowed in a URI path; percent-encode it (%20)");
  }

  @Test
  void aPathWithPercentEncodingAndSubDelimitersIsFine() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: a, shape: dump, path: "/a%20b/c;v=1/@x:y/{{ unit.name }}",
                       rows: {decoder: json_array}}
                """))
        .isEmpty();
  }
}
