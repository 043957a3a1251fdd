package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config-check --probe} against a real local server: one line per enabled REST connection
 * (ok, refused with its status, unreachable), a failing exit when one is not ok, nothing landed, no
 * secret printed.
 */
class ConfigCheckProbeTest {

  private static final String GOOD = "ghp_good-s3cr3t-token";
  private static final String BAD = "ghp_revoked-s3cr3t-token";

  @TempDir Path directory;
  private HttpServer server;
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private FetcherWorkspace workspace;

  @BeforeEach
  void start() throws IOException {
    workspace = new FetcherWorkspace(directory);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String authorization = exchange.getRequestHeaders().getFirst("Authorization");
          seen.add(
              exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + authorization);
          boolean good = ("Bearer " + GOOD).equals(authorization);
          byte[] body =
              (good ? "{\"resources\":{}}" : "{\"message\":\"Bad credentials\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(good ? 200 : 401, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** A github-issues instance under {@code sources.rest}, its token read from a file. */
  private static String github(String id, String apiUrl, Path tokenFile, boolean enabled) {
    return String.join(
        "\n",
        "    " + id + ":",
        "      profile: github-issues",
        "      topic: " + id,
        "      enabled: " + enabled,
        "      vars: {api_url: \"" + apiUrl + "\", owner: acme, repo: fetcher}",
        "      auth: {mode: bearer, token: \"file:" + tokenFile + "\"}",
        "");
  }

  @Test
  void eachEnabledConnectionSaysWhetherItsCredentialsWorkAndAFailureFailsTheCheck()
      throws IOException {
    Path good = workspace.write("secrets/good", GOOD + "\n");
    Path bad = workspace.write("secrets/bad", BAD + "\n");
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + "sources:\n  rest:\n"
                + github("working", url(), good, true)
                + github("revoked", url(), bad, true)
                + github("gone", "http://127.0.0.1:" + closed, good, true)
                + github("paused", url(), bad, false)
                + """
                    inline:
                      topic: inline
                      profile:
                        base_url: "%s"
                        endpoints:
                          - {unit: items, shape: dump, path: /items, rows: {decoder: json_array}}
                """
                    .formatted(url()));

    CliRun run = CliRun.of("config-check", "--probe", "--config", config.toString());

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(1);
    String out = run.out();
    assertThat(out.substring(out.indexOf("probes:")).lines())
        .containsExactly(
            "probes:",
            "  rest working: ok (GET " + url() + "/rate_limit answered 200)",
            "  rest revoked: refused (GET "
                + url()
                + "/rate_limit answered 401, not [200] (check the instance's auth))",
            "  rest gone: unreachable (GET http://127.0.0.1:"
                + closed
                + "/rate_limit failed: connection refused)",
            "  rest inline: no probe (its configuration names none)");
    assertThat(seen)
        .containsExactly("GET /rate_limit Bearer " + GOOD, "GET /rate_limit Bearer " + BAD);
    assertThat(run.out() + run.err()).doesNotContain(GOOD, BAD, "s3cr3t");
    assertThat(workspace.landing()).doesNotExist();
    assertThat(workspace.state()).doesNotExist();
  }

  @Test
  void whenEveryProbeWorksTheCheckPasses() {
    Path good = workspace.write("secrets/good", GOOD);
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER + "sources:\n  rest:\n" + github("working", url(), good, true));

    CliRun run = CliRun.of("config-check", "--probe", "--config", config.toString());

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out())
        .contains("  rest working: ok (GET " + url() + "/rate_limit answered 200)");
  }

  @Test
  void withoutProbeNothingIsSent() {
    Path bad = workspace.write("secrets/bad", BAD);
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER + "sources:\n  rest:\n" + github("revoked", url(), bad, true));

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).doesNotContain("probes:");
    assertThat(seen).isEmpty();
  }
}
