package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code headers}: several secrets on one request, as Datadog's two API-key headers. */
class SecretHeadersTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String yaml(String auth) {
    return """
        topic: lab
        auth: %s
        profile:
          base_url: "%s"
          endpoints:
            - {unit: monitors, shape: dump, path: /api/v1/monitor, rows: {decoder: json_array}}
        """
        .formatted(auth, server.url());
  }

  @Test
  void everyHeaderGoesWithItsOwnSecret() throws Exception {
    server.on("/api/v1/monitor", ok("[{\"id\":1}]"));

    RecordingSink sink =
        RestFixture.read(
            RestFixture.connection(
                yaml(
                    "{mode: headers, headers: {DD-API-KEY: env:DD_API, DD-APPLICATION-KEY: env:DD_APP}}"),
                Map.of("DD_API", "api-123", "DD_APP", "app-456")),
            "monitors");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    ApiServer.Seen seen = server.requests().get(0);
    assertThat(seen.header("DD-API-KEY")).isEqualTo("api-123");
    assertThat(seen.header("DD-APPLICATION-KEY")).isEqualTo("app-456");
  }

  @Test
  void aHeaderTheClientSetsItselfOrNoHeaderAtAllIsReported() {
    assertThat(RestFixture.problems(yaml("{mode: headers, headers: {Host: env:X, 'a b': env:Y}}")))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.headers.Host")
                    .contains("set by the HTTP client"))
        .anySatisfy(
            p -> assertThat(p).contains("sources.rest.lab.auth.headers.a b: is not a header name"));
    assertThat(RestFixture.problems(yaml("{mode: headers, headers: {}}")))
        .anySatisfy(
            p -> assertThat(p).contains("sources.rest.lab.auth.headers: needs at least one"));
  }
}
