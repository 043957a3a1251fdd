package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.rest.profile.ShippedProfiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loading refuses unknown keys, unknown words and undefined variables, all at once, with places.
 */
class ProfileGrammarTest {

  @Test
  void unknownKeysWordsAndVariablesAreAllReportedWithTheirPlaces() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            vars: {host: "http://127.0.0.1:1"}
            profile:
              base_url: "{{ vars.host }}/v1"
              colour: blue
              endpoints:
                - unit: assets
                  shape: snapshot
                  path: "/assets/{{ vars.tenant }}"
                  rows: {decoder: xml}
                  paginate: {type: infinite}
                - unit: events
                  shape: dump
                  path: /events
                  query: {since: "{{ window.start }}"}
                  rows: {decoder: json_array}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:5:3: sources.rest.lab.profile.colour: unknown key; allowed keys: base_url,"
                + " vars, auth, headers, retry, rate, quota, errors, defaults, probe,"
                + " endpoints, units, maturity",
            "config.yaml:8:14: sources.rest.lab.profile.endpoints[0].shape: unknown shape"
                + " 'snapshot'; one of dump, tail",
            "config.yaml:9:13: sources.rest.lab.profile.endpoints[0].path: reads {{ vars.tenant"
                + " }}, which is not defined; set tenant in sources.rest.lab.vars (defined: host)",
            "config.yaml:10:23: sources.rest.lab.profile.endpoints[0].rows.decoder: unknown decoder"
                + " 'xml'; one of json_array, ndjson, json_at, document, csv, lines, json",
            "config.yaml:11:24: sources.rest.lab.profile.endpoints[0].paginate.type: unknown pager"
                + " 'infinite'; one of none, link_header, json_link, header_link, cursor, page_number, offset",
            "config.yaml:15:22: sources.rest.lab.profile.endpoints[1].query.since: reads {{"
                + " window.start }}, which only a tail endpoint has");
  }

  @Test
  void aShippedProfileIsCheckedLikeAnInlineOneAndItsProblemsNameItsResource() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: gh
            profile: github-issues
            vars: {owner: acme}
            auth: {mode: bearer, token: literal:x}
            """);

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0))
        .matches(
            "source-rest:profiles/github-issues\\.yaml:\\d+:\\d+:"
                + " profiles/github-issues\\.endpoints\\[0]\\.path: reads \\{\\{ vars\\.repo }},"
                + " which is not defined; set repo in sources\\.rest\\.lab\\.vars .*");
  }

  @Test
  void anUnknownShippedProfileIsNamedWithTheOnesThereAre() {
    List<String> problems = RestFixture.problems("topic: x\nprofile: jira\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:2:10: sources.rest.lab.profile: no shipped profile named 'jira'; one of"
                + " "
                + String.join(", ", ShippedProfiles.NAMES)
                + ", or an inline profile (a mapping)");
  }

  @Test
  void anAuthModeTheProfileDoesNotAcceptIsRefused() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: gh
            profile: github-issues
            vars: {owner: acme, repo: fetcher}
            auth: {mode: basic, user: me, password: literal:pw}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:4:14: sources.rest.lab.auth.mode: the profile accepts bearer, none, not"
                + " basic");
  }

  @Test
  void aPagerOrFailWhenThatReadsTheBodyOfAStreamedDecoderIsRefused() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            profile:
              base_url: "http://127.0.0.1:1"
              endpoints:
                - unit: assets
                  shape: dump
                  path: /assets
                  rows: {decoder: ndjson}
                  paginate: {type: cursor, from: "body:/next", into: "query:cursor"}
                  fail_when: "has(body.error)"
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:9:17: sources.rest.lab.profile.endpoints[0].paginate: reads the page's"
                + " body, which decoder ndjson streams and does not hold; use json_at or document",
            "config.yaml:10:18: sources.rest.lab.profile.endpoints[0].fail_when: reads the page's"
                + " body, which decoder ndjson streams and does not hold; use json_at or document");
  }

  @Test
  void unitOverridesNameAnEndpointOfTheProfile() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: gh
            profile: github-issues
            vars: {owner: acme, repo: fetcher}
            auth: {mode: bearer, token: literal:x}
            units:
              pulls: {enabled: false}
              issues: {lookback: soon}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:6:10: sources.rest.lab.units.pulls: the profile has no unit 'pulls'; its"
                + " units: issues",
            "config.yaml:7:22: sources.rest.lab.units.issues.lookback: must be a duration: a number"
                + " and ms, s, m, h or d, e.g. 15m or 1h");
  }

  @Test
  void everyShippedProfileLoadsWithTheVariablesItDocuments() {
    for (String instance :
        List.of(
            "{topic: a, profile: github-issues, vars: {owner: o, repo: r},"
                + " auth: {mode: bearer, token: literal:t}}",
            "{topic: a, profile: okta-system-log, vars: {org_url: 'https://acme.okta.com'},"
                + " auth: {mode: api_key, key: literal:k}}",
            "{topic: a, profile: runzero-assets, auth: {mode: bearer, token: literal:t}}",
            "{topic: a, profile: generic-json, vars: {base_url: 'https://api.example.com',"
                + " path: /items}}")) {
      assertThat(RestFixture.problems(instance)).as(instance).isEmpty();
    }
  }

  @Test
  void aSecretSpecThatNamesNothingIsReportedWithoutItsValue() {
    List<String> problems =
        RestFixture.problems(
            """
            topic: lab
            auth: {mode: bearer, token: "env:"}
            profile:
              base_url: "http://127.0.0.1:1"
              endpoints: [{unit: a, shape: dump, path: /a, rows: {decoder: json_array}}]
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:2:29: sources.rest.lab.auth.token: env: needs an environment variable"
                + " name (letters, digits, '_'), e.g. env:KAFKA_PASSWORD");
  }
}
