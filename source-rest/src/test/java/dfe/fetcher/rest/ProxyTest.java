package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code auth.proxy}: requests, the token request among them, go through the HTTP proxy. */
class ProxyTest {

  @TempDir Path directory;
  private ApiServer server;
  private TunnelProxy proxy;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    proxy = new TunnelProxy();
  }

  @AfterEach
  void stop() throws Exception {
    proxy.close();
    server.close();
  }

  @Test
  void plainHttpRequestsAndTheTokenRequestGoThroughTheProxy() throws Exception {
    server.on("/oauth/token", ok("{\"access_token\":\"at-1\"}")).on("/assets", ok("[{\"id\":1}]"));

    RecordingSink sink =
        RestFixture.read(
            ClientTlsTest.connection(
                server.url(),
                ("{mode: oauth2_client_credentials, token_url: '%s/oauth/token', client_id: a,"
                        + " client_secret: s, proxy: '%s'}")
                    .formatted(server.url(), proxy.url())),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(proxy.requestLines())
        .containsExactly(
            "POST " + server.url() + "/oauth/token HTTP/1.1",
            "GET " + server.url() + "/assets HTTP/1.1");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer at-1");
  }

  @Test
  void anHttpsRequestIsTunnelledWithConnectAndStillShowsTheClientCertificate() throws Exception {
    TlsMaterial tls = TlsMaterial.create(directory);
    try (ClientCertServer https = new ClientCertServer(tls.serverContext())) {
      RecordingSink sink =
          RestFixture.read(
              ClientTlsTest.connection(
                  https.url(),
                  "{mode: none, proxy: '%s', tls: {client_cert: '%s', client_key: 'file:%s', ca_file: '%s'}}"
                      .formatted(proxy.url(), tls.clientCert, tls.clientKey, tls.serverCert)),
              "assets");

      assertThat(sink.shape()).containsExactly("begin", "row", "end");
      assertThat(proxy.requestLines())
          .containsExactly("CONNECT 127.0.0.1:" + https.port() + " HTTP/1.1");
      assertThat(https.clients()).containsExactly(TlsMaterial.CLIENT_NAME);
    }
  }

  @Test
  void aProxyWithCredentialsOrAPathIsReported() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: none, proxy: "http://user:pw@proxy:3128"}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """,
                Map.of()))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.proxy: must be http://HOST:PORT")
                    .doesNotContain("pw@"));
  }
}
