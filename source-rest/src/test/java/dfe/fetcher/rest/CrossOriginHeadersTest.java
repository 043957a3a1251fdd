package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A profile's headers that carry credentials (a cookie, an API key, a token) go only where
 * credentials go, {@code base_url}'s origin; the others go to every page, a {@code Link} target on
 * another origin included.
 */
class CrossOriginHeadersTest {

  private ApiServer server;
  private ApiServer other;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    other = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
    other.close();
  }

  @Test
  void headersCarryingCredentialsAreNotSentToALinkOnAnotherOrigin() throws Exception {
    server.on(
        "/assets", ok("[{\"id\":1}]", "Link", "<" + other.url() + "/mirror?page=2>; rel=\"next\""));
    other.on("/mirror", ok("[{\"id\":2}]"));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            vars: {key: k-123}
            profile:
              base_url: "%s"
              headers:
                Accept: application/json
                X-Api-Key: "{{ vars.key }}"
                Cookie: "session=s-456"
              endpoints:
                - unit: assets
                  shape: dump
                  path: /assets
                  headers: {X-Amz-Security-Token: t-789, X-Request-Source: fetcher}
                  rows: {decoder: json_array}
                  paginate: {type: link_header}
            """
                .formatted(server.url()));

    RecordingSink sink = RestFixture.read(connection, "assets");

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    ApiServer.Seen atBase = server.requests().get(0);
    assertThat(atBase.header("X-Api-Key")).isEqualTo("k-123");
    assertThat(atBase.header("Cookie")).isEqualTo("session=s-456");
    assertThat(atBase.header("X-Amz-Security-Token")).isEqualTo("t-789");
    ApiServer.Seen elsewhere = other.requests().get(0);
    assertThat(elsewhere.header("Accept")).isEqualTo("application/json");
    assertThat(elsewhere.header("X-Request-Source")).isEqualTo("fetcher");
    assertThat(elsewhere.header("X-Api-Key")).isNull();
    assertThat(elsewhere.header("Cookie")).isNull();
    assertThat(elsewhere.header("X-Amz-Security-Token")).isNull();
  }
}
