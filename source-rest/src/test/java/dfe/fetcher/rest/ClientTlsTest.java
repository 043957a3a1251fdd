package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.SourceMetrics;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code auth.tls}: a server that requires a client certificate gets the one the instance names, as
 * PKCS#12 or as PEM, and the server is trusted through {@code ca_file}.
 */
class ClientTlsTest {

  @TempDir static Path directory;
  private static TlsMaterial tls;
  private ClientCertServer server;

  @BeforeAll
  static void certificates() throws Exception {
    tls = TlsMaterial.create(directory);
  }

  @BeforeEach
  void start() throws Exception {
    server = new ClientCertServer(tls.serverContext());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static RestConnection connection(String baseUrl, String auth) {
    return RestFixture.connection(
        """
        topic: lab
        auth: %s
        profile:
          base_url: "%s"
          retry: {max_retries: 1, initial_backoff_ms: 1, max_backoff_ms: 5}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
        """
            .formatted(auth, baseUrl),
        Map.of("P12_PASSWORD", TlsMaterial.CLIENT_PASSWORD, "TOKEN", "tok-1"));
  }

  @Test
  void aPkcs12KeystoreIsTheClientCertificateTheServerSees() throws Exception {
    RecordingSink sink =
        RestFixture.read(
            connection(
                server.url(),
                "{mode: bearer, token: env:TOKEN, tls: {keystore: '%s', keystore_password: env:P12_PASSWORD, ca_file: '%s'}}"
                    .formatted(tls.clientKeystore, tls.serverCert)),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.clients()).containsExactly(TlsMaterial.CLIENT_NAME);
  }

  @Test
  void aPemCertificateAndKeyAreTheClientCertificateTheServerSees() throws Exception {
    RecordingSink sink =
        RestFixture.read(
            connection(
                server.url(),
                "{mode: none, tls: {client_cert: '%s', client_key: 'file:%s', ca_file: '%s'}}"
                    .formatted(tls.clientCert, tls.clientKey, tls.serverCert)),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.clients()).containsExactly(TlsMaterial.CLIENT_NAME);
  }

  @Test
  void withoutTheCaFileTheSelfSignedServerIsNotTrusted() throws Exception {
    RecordingSink sink =
        RestFixture.read(
            connection(
                server.url(),
                "{mode: none, tls: {client_cert: '%s', client_key: 'file:%s'}}"
                    .formatted(tls.clientCert, tls.clientKey)),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(server.clients()).isEmpty();
  }

  @Test
  void aWrongKeystorePasswordFailsTheOpeningNamingTheSettingNotThePassword() {
    RestConnection connection =
        connection(
            server.url(),
            "{mode: none, tls: {keystore: '%s', keystore_password: literal:wrong-pass-SECRET}}"
                .formatted(tls.clientKeystore));

    assertThatThrownBy(() -> RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("sources.rest.lab.auth.tls.keystore: ")
        .hasMessageContaining("keystore_password")
        .hasMessageNotContaining("wrong-pass-SECRET");
  }

  @Test
  void aCertificateWithoutItsKeyIsReported() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: none, tls: {client_cert: /x.pem, ca: /y.pem}}
                profile:
                  base_url: "https://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.tls.client_key: is required with client_cert"))
        .anySatisfy(p -> assertThat(p).contains("sources.rest.lab.auth.tls.ca"));
  }
}
