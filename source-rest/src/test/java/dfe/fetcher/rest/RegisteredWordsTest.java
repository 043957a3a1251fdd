package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An auth mode or a pager the registries do not know is refused naming it, and so is a key the
 * chosen mode or pager does not take.
 */
class RegisteredWordsTest {

  private static final String ENDPOINT =
      """
      topic: lab
      profile:
        base_url: "http://127.0.0.1:1/v1"
        endpoints:
          - unit: assets
            shape: dump
            path: /assets
            rows: {decoder: json_at, at: /items}
      """;

  @Test
  void anUnknownAuthModeIsReportedNamingItAndTheModes() {
    List<String> problems = RestFixture.problems(ENDPOINT + "auth: {mode: kerberos}\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:9:14: sources.rest.lab.auth.mode: unknown auth mode 'kerberos'; one of"
                + " none, bearer, basic, api_key, oauth2_client_credentials, sigv4, headers,"
                + " session_login, signature, jwt_bearer");
  }

  @Test
  void aKeyTheAuthModeDoesNotTakeIsReported() {
    List<String> problems =
        RestFixture.problems(ENDPOINT + "auth: {mode: bearer, token: literal:t, user: me}\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:9:46: sources.rest.lab.auth.user: does not apply to auth mode bearer");
  }

  @Test
  void aKeyThePagerDoesNotTakeIsReported() {
    List<String> problems =
        RestFixture.problems(
            ENDPOINT.replace(
                "rows: {decoder: json_at, at: /items}",
                "rows: {decoder: json_at, at: /items}\n      paginate: {type: link_header, from: body:/next}"));

    assertThat(problems)
        .containsExactly(
            "config.yaml:9:43: sources.rest.lab.profile.endpoints[0].paginate.from: does not apply"
                + " to pager link_header");
  }
}
