package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.ProbeOutcome;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code pypi} profile against a local server answering as PyPI's JSON API does: a
 * project's document, 404 for a project that does not exist, 503 from the CDN, and the probe.
 */
class PypiProfileTest {

  private static final String REQUESTS =
      "{\"info\":{\"name\":\"requests\",\"version\":\"2.32.3\"},\"last_serial\":24136578,"
          + "\"urls\":[{\"filename\":\"requests-2.32.3-py3-none-any.whl\"}],\"vulnerabilities\":[]}";

  @AutoClose private final ApiServer server = ApiServer.started();

  private RestConnection pypi(String packages) {
    return RestFixture.connection(
        """
        topic: pypi
        profile: pypi
        vars: {api_url: "%s", packages: "%s", user_agent: "acme-sbom (ops@acme.example)"}
        """
            .formatted(server.url(), packages));
  }

  @Test
  void eachProjectLandsItsDocumentWithItsNameAndOneThatDoesNotExistIsNoRow() throws Exception {
    server.on("/pypi/requests/json", ok(REQUESTS));
    server.on("/pypi/no-such-project/json", json(404, "{\"message\":\"Not Found\"}"));

    RecordingSink sink = RestFixture.read(pypi("requests,no-such-project"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            REQUESTS.substring(0, REQUESTS.length() - 1)
                + ",\"_dfe_fetcher_package\":\"requests\"}");
    assertThat(server.paths()).containsExactly("/pypi/requests/json", "/pypi/no-such-project/json");
    assertThat(server.requests())
        .allSatisfy(
            r -> {
              assertThat(r.method()).isEqualTo("GET");
              assertThat(r.header("User-Agent")).isEqualTo("acme-sbom (ops@acme.example)");
              assertThat(r.header("Authorization")).isNull();
            });
  }

  @Test
  void aServiceUnavailableIsRetriedAndThenAnswered() throws Exception {
    server.on(
        "/pypi/requests/json",
        json(503, "{\"message\":\"Service Unavailable\"}", "Retry-After", "0"),
        ok(REQUESTS));

    RecordingSink sink = RestFixture.read(pypi("requests"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/pypi/requests/json", "/pypi/requests/json");
  }

  @Test
  void aForbiddenAnswerIsNotRetriedAndFailsTheDump() throws Exception {
    server.on("/pypi/requests/json", json(403, "{\"message\":\"Forbidden\"}"));

    RecordingSink sink = RestFixture.read(pypi("requests"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason -> assertThat(reason).contains("/pypi/requests/json").contains("403"));
    assertThat(server.paths()).containsExactly("/pypi/requests/json");
  }

  @Test
  void theProbeAsksForTheFirstProjectsDocument() throws Exception {
    server.on("/pypi/requests/json", ok(REQUESTS));

    Optional<ProbeOutcome> outcome = RestFixture.probe(pypi(" requests ,urllib3"));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK,
                "GET " + server.url() + "/pypi/requests/json answered 200"));
    assertThat(server.paths()).containsExactly("/pypi/requests/json");
  }
}
