package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.SourceUnit;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code base_url} that reads {@code {{ unit.name }}} is rendered once per unit, and that one
 * rendering is what the unit requests, where its credentials go (the origin), what its {@code Link}
 * targets are judged against and what {@code config-check} shows.
 */
class BaseUrlPerUnitTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The unit {@code localhost} names the server's host: {@code http://localhost:PORT}. */
  private RestConnection connection() {
    int port = URI.create(server.url()).getPort();
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: env:TOKEN}
        profile:
          base_url: "http://{{ unit.name }}:%d/api/"
          endpoints:
            - unit: localhost
              shape: dump
              path: /assets
              rows: {decoder: json_array}
              paginate: {type: link_header}
        """
            .formatted(port),
        Map.of("TOKEN", "t-1"));
  }

  @Test
  void credentialsGoToTheOriginTheUnitsBaseUrlNames() throws Exception {
    int port = URI.create(server.url()).getPort();
    server.on(
        "/api/assets",
        ok(
            "[{\"id\":1}]",
            "Link",
            "<http://localhost:" + port + "/api/assets-page-2>; rel=\"next\""));
    server.on("/api/assets-page-2", ok("[{\"id\":2}]"));

    RecordingSink sink = RestFixture.read(connection(), "localhost");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(server.paths()).containsExactly("/api/assets", "/api/assets-page-2");
    assertThat(server.requests())
        .allSatisfy(request -> assertThat(request.header("Authorization")).isEqualTo("Bearer t-1"));
  }

  @Test
  void configCheckShowsTheUrlTheUnitRequests() {
    int port = URI.create(server.url()).getPort();

    SourceUnit unit = connection().units().get(0);

    assertThat(unit.details().get(0)).contains("GET http://localhost:" + port + "/api/assets,");
  }
}
