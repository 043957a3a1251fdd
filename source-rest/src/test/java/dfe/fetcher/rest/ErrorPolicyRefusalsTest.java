package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A policy or budget that cannot mean what it says is refused at load, naming its config path: a
 * status that is no error status, a status both retried and not, a {@code throttle_when} that does
 * not compile or reads what it is not given, a budget out of range.
 */
class ErrorPolicyRefusalsTest {

  private static String instance(String connection, String profileErrors, String endpoint) {
    return """
        topic: lab
        %s
        profile:
          base_url: "http://127.0.0.1:1"
          errors: %s
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}%s}
        """
        .formatted(connection, profileErrors, endpoint);
  }

  private static String profileErrors(String errors) {
    return instance("", errors, "");
  }

  @Test
  void aStatusThatIsNotAnErrorStatusIsRefused() {
    assertThat(RestFixture.problems(profileErrors("{retry_on: [429, 200, \"503\"]}")))
        .containsExactly(
            "config.yaml:5:28: sources.rest.lab.profile.errors.retry_on[1]: must be an HTTP error"
                + " status from 400 to 599, e.g. 404, not 200",
            "config.yaml:5:33: sources.rest.lab.profile.errors.retry_on[2]: must be an HTTP error"
                + " status from 400 to 599, e.g. 404, not a string");
  }

  @Test
  void aStatusBothRetriedAndNeverRetriedIsRefused() {
    assertThat(RestFixture.problems(profileErrors("{retry_on: [429, 503], never_retry: [503]}")))
        .containsExactly(
            "config.yaml:5:47: sources.rest.lab.profile.errors.never_retry: 503 is in retry_on"
                + " too; a status is either retried or never");
  }

  @Test
  void anEndpointsErrorsAreCheckedOverTheProfiles() {
    assertThat(
            RestFixture.problems(
                instance("", "{retry_on: [404]}", ", errors: {ignore_status: [404]}")))
        .containsExactly(
            "config.yaml:7:103: sources.rest.lab.profile.endpoints[0].errors.ignore_status: 404 is"
                + " in retry_on too; an ignored status is not retried");
  }

  @Test
  void aThrottleWhenThatDoesNotCompileIsRefused() {
    assertThat(RestFixture.problems(profileErrors("{throttle_when: 'status == '}")))
        .hasSize(1)
        .first()
        .asString()
        .startsWith(
            "config.yaml:5:27: sources.rest.lab.profile.errors.throttle_when: does not compile:");
  }

  @Test
  void aThrottleWhenReadingAnythingButStatusAndBodyIsRefused() {
    assertThat(RestFixture.problems(profileErrors("{throttle_when: 'record.type == \"x\"'}")))
        .containsExactly(
            "config.yaml:5:27: sources.rest.lab.profile.errors.throttle_when: reads record; a"
                + " throttle_when sees status (a number) and body (the answer's JSON) only");
  }

  @Test
  void retryNonIdempotentOnAGetEndpointIsRefused() {
    assertThat(RestFixture.problems(instance("", "{}", ", errors: {retry_non_idempotent: true}")))
        .containsExactly(
            "config.yaml:7:110: sources.rest.lab.profile.endpoints[0].errors.retry_non_idempotent:"
                + " applies to method: POST only");
  }

  @Test
  void anUnknownKeyUnderErrorsIsRefused() {
    assertThat(RestFixture.problems(profileErrors("{retry: [503]}")))
        .containsExactly(
            "config.yaml:5:12: sources.rest.lab.profile.errors.retry: unknown key; allowed keys:"
                + " retry_on, never_retry, ignore_status, throttle_when, retry_non_idempotent");
  }

  @Test
  void aBudgetOutOfRangeIsRefused() {
    assertThat(
            RestFixture.problems(
                instance("rate: {burst: 5}\nmax_concurrent_requests: 0", "{}", "")))
        .containsExactly(
            "config.yaml:2:15: sources.rest.lab.rate.burst: applies with requests_per_sec only",
            "config.yaml:3:26: sources.rest.lab.max_concurrent_requests: must be at least 1, was"
                + " 0");
    assertThat(RestFixture.problems(instance("rate: {requests_per_sec: 0, burst: 0}", "{}", "")))
        .containsExactly(
            "config.yaml:2:26: sources.rest.lab.rate.requests_per_sec: must be a number above 0"
                + " and at most 10000, e.g. 2 or 0.5",
            "config.yaml:2:36: sources.rest.lab.rate.burst: must be at least 1, was 0");
  }
}
