package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dfe.fetcher.source.ProbeOutcome;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code crates_io} profile against a local server answering as crates.io's web API
 * does: a crate's document, 404 with crates.io's error list for a crate that does not exist, 429
 * with {@code Retry-After}, and the summary the probe asks for.
 */
class CratesIoProfileTest {

  private static final String USER_AGENT = "acme-sbom (ops@acme.example)";
  private static final String SERDE =
      "{\"crate\":{\"id\":\"serde\",\"max_version\":\"1.0.215\"},\"versions\":[{\"num\":\"1.0.215\"}]}";

  @AutoClose private final ApiServer server = ApiServer.started();

  private RestConnection cratesIo(String crates) {
    return RestFixture.connection(
        """
        topic: crates
        profile: crates_io
        vars: {api_url: "%s", crates: "%s", user_agent: "%s"}
        """
            .formatted(server.url(), crates, USER_AGENT));
  }

  @Test
  void eachCrateLandsItsDocumentWithItsNameAndOneThatDoesNotExistIsNoRow() throws Exception {
    server.on("/api/v1/crates/serde", ok(SERDE));
    server.on(
        "/api/v1/crates/no-such-crate",
        json(404, "{\"errors\":[{\"detail\":\"crate `no-such-crate` does not exist\"}]}"));

    RecordingSink sink = RestFixture.read(cratesIo("serde, no-such-crate"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"crate\":{\"id\":\"serde\",\"max_version\":\"1.0.215\"},"
                + "\"versions\":[{\"num\":\"1.0.215\"}],\"_dfe_fetcher_crate\":\"serde\"}");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::method, ApiServer.Seen::pathAndQuery)
        .containsExactly(
            tuple("GET", "/api/v1/crates/serde"), tuple("GET", "/api/v1/crates/no-such-crate"));
    assertThat(server.requests())
        .allSatisfy(
            r -> {
              assertThat(r.header("User-Agent")).isEqualTo(USER_AGENT);
              assertThat(r.header("Accept")).isEqualTo("application/json");
              assertThat(r.header("Authorization")).isNull();
            });
  }

  @Test
  void tooManyRequestsIsWaitedOutAndAskedAgain() throws Exception {
    server.on(
        "/api/v1/crates/serde",
        json(429, "{\"errors\":[{\"detail\":\"too many requests\"}]}", "Retry-After", "0"),
        ok(SERDE));

    RecordingSink sink = RestFixture.read(cratesIo("serde"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/api/v1/crates/serde", "/api/v1/crates/serde");
  }

  @Test
  void aRefusalOtherThan404FailsTheDumpWithoutItsEnd() throws Exception {
    server.on(
        "/api/v1/crates/serde",
        json(
            403,
            "{\"errors\":[{\"detail\":\"We require that all requests include a User-Agent\"}]}"));

    RecordingSink sink = RestFixture.read(cratesIo("serde"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("GET " + server.url() + "/api/v1/crates/serde")
                    .contains("403"));
    assertThat(server.paths()).containsExactly("/api/v1/crates/serde");
  }

  @Test
  void theProbeAsksForTheSummaryWithTheUserAgent() throws Exception {
    server.on("/api/v1/summary", ok("{\"num_crates\":160000}"));

    Optional<ProbeOutcome> outcome = RestFixture.probe(cratesIo("serde"));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK, "GET " + server.url() + "/api/v1/summary answered 200"));
    assertThat(server.requests())
        .singleElement()
        .satisfies(r -> assertThat(r.header("User-Agent")).isEqualTo(USER_AGENT));
  }
}
