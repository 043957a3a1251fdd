package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.ProbeOutcome;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code go_modules} profile against a local server answering as a Go module proxy does
 * (the GOPROXY protocol): a module's version list as plain text, each version's {@code .info}
 * document, 404 and 410 for what the proxy does not have, a 502, and the probe; each module's
 * documents folded into one row ({@code go_module_aggregate}).
 */
class GoModulesProfileTest {

  private static final String TEXT = "/golang.org/x/text/@v/";

  @AutoClose private final ApiServer server = ApiServer.started();

  private RestConnection goModules(String modules) {
    return RestFixture.connection(
        """
        topic: go-modules
        profile: go_modules
        vars: {proxy_url: "%s", modules: "%s"}
        """
            .formatted(server.url(), modules));
  }

  private static ApiServer.Answer text(int status, String body) {
    return ApiServer.send(
        status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
  }

  private static String info(String version, String time) {
    return "{\"Version\":\"" + version + "\",\"Time\":\"" + time + "\"}";
  }

  @Test
  void eachModulesVersionDocumentsAreFoldedIntoOneRowAndAModuleNotOnTheProxyIsNoRow()
      throws Exception {
    server.on(TEXT + "list", text(200, "v0.3.2\nv0.3.0\nv0.3.1\n"));
    server.on(TEXT + "v0.3.2.info", ok(info("v0.3.2", "2019-05-30T21:12:45Z")));
    server.on(TEXT + "v0.3.0.info", ok(info("v0.3.0", "2017-12-14T13:08:43Z")));
    server.on(TEXT + "v0.3.1.info", text(410, "not found: golang.org/x/text@v0.3.1: retracted"));
    server.on(
        "/github.com/!azure/no-such-module/@v/list",
        text(404, "not found: module github.com/Azure/no-such-module: no matching versions"));

    RecordingSink sink =
        RestFixture.read(
            goModules("golang.org/x/text, github.com/!azure/no-such-module"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"_dfe_fetcher_module\":\"golang.org/x/text\",\"versions\":["
                + info("v0.3.2", "2019-05-30T21:12:45Z")
                + ","
                + info("v0.3.0", "2017-12-14T13:08:43Z")
                + "],\"version_count\":2,\"last_published_version\":\"v0.3.2\","
                + "\"last_published_time\":\"2019-05-30T21:12:45Z\"}");
    assertThat(server.paths())
        .containsExactly(
            TEXT + "list",
            TEXT + "v0.3.2.info",
            TEXT + "v0.3.0.info",
            TEXT + "v0.3.1.info",
            // A key is percent-encoded in a path: the proxy decodes %21 back to the "!" escape.
            "/github.com/%21azure/no-such-module/@v/list");
    assertThat(server.requests())
        .allSatisfy(
            r -> {
              assertThat(r.method()).isEqualTo("GET");
              assertThat(r.header("Authorization")).isNull();
            });
  }

  @Test
  void aModuleWithoutTaggedVersionsIsNoRow() throws Exception {
    server.on(TEXT + "list", text(200, ""));

    RecordingSink sink = RestFixture.read(goModules("golang.org/x/text"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "end");
    assertThat(server.paths()).containsExactly(TEXT + "list");
  }

  @Test
  void aBadGatewayIsRetriedAndADocumentWithoutAVersionFailsTheDump() throws Exception {
    server.on(TEXT + "list", text(502, "bad gateway"), text(200, "v0.3.0\n"));
    server.on(TEXT + "v0.3.0.info", ok("{\"Time\":\"2017-12-14T13:08:43Z\"}"));

    RecordingSink sink = RestFixture.read(goModules("golang.org/x/text"), "metadata");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("row 0 has no Version string (fold go_module_aggregate)"));
    assertThat(server.paths()).containsExactly(TEXT + "list", TEXT + "list", TEXT + "v0.3.0.info");
  }

  @Test
  void theProbeAsksForTheFirstModulesVersionList() throws Exception {
    server.on(TEXT + "list", text(200, "v0.3.0\n"));

    Optional<ProbeOutcome> outcome =
        RestFixture.probe(goModules("golang.org/x/text,golang.org/x/mod"));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK, "GET " + server.url() + TEXT + "list answered 200"));
    assertThat(server.paths()).containsExactly(TEXT + "list");
  }
}
