package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.ProbeOutcome.Verdict;
import java.net.ServerSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code config-check --probe} for ClickHouse connections, against the real server: {@code SELECT
 * 1} with the connection's credentials, over HTTP and HTTPS; ok, refused (ClickHouse's code named),
 * unreachable; never a password in the outcome.
 */
@Timeout(120)
class ClickHouseProbeTest {

  @BeforeAll
  static void server() throws Exception {
    ClickHouseFixture.ensureTlsServer();
    ClickHouseFixture.freshDatabase("dfe_probe");
  }

  private static ProbeOutcome probe(String url, String settings) throws InterruptedException {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: "
                + url
                + "\n"
                + settings
                + "connect_timeout_secs: 2\nstores:\n  - {unit: a, shape: dump, query: \"SELECT"
                + " 1\"}\n");
    ProbeOutcome outcome = connection.probe(ClickHouseFixture.runtime()).orElseThrow();
    assertThat(outcome.detail()).doesNotContain("dfe-secret", "wr0ng-pa55", "\n");
    return outcome;
  }

  @Test
  void theRightCredentialsAreOkOverHttpAndHttps() throws Exception {
    assertThat(
            probe(ClickHouseFixture.URL, "user: dfe\npassword: dfe-secret\ndatabase: dfe_probe\n"))
        .isEqualTo(
            new ProbeOutcome(
                Verdict.OK,
                "SELECT 1 on " + ClickHouseFixture.URL + " as dfe in dfe_probe answered 1"));
    assertThat(
            probe(
                ClickHouseFixture.HTTPS_URL,
                "user: dfe\npassword: dfe-secret\ntls: {ca_file: \""
                    + ClickHouseFixture.caFile()
                    + "\"}\n"))
        .isEqualTo(
            new ProbeOutcome(
                Verdict.OK, "SELECT 1 on " + ClickHouseFixture.HTTPS_URL + " as dfe answered 1"));
    assertThat(probe(ClickHouseFixture.URL, "").verdict()).isEqualTo(Verdict.OK);
    assertThat(probe(ClickHouseFixture.URL, "").detail())
        .isEqualTo("SELECT 1 on " + ClickHouseFixture.URL + " as the default user answered 1");
  }

  @Test
  void aWrongPasswordOrUserOrDatabaseIsRefusedWithClickHousesCode() throws Exception {
    ProbeOutcome wrongPassword = probe(ClickHouseFixture.URL, "user: dfe\npassword: wr0ng-pa55\n");
    assertThat(wrongPassword.verdict()).isEqualTo(Verdict.REFUSED);
    // 18.16 says 193 (wrong password); newer servers say 516 (authentication failed).
    assertThat(wrongPassword.detail())
        .startsWith("SELECT 1 on " + ClickHouseFixture.URL + " as dfe answered 401: Code: ")
        .containsAnyOf("Code: 193.", "Code: 516.")
        .endsWith(" (check the connection's user and password)");

    ProbeOutcome unknownUser = probe(ClickHouseFixture.URL, "user: nobody\n");
    assertThat(unknownUser.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(unknownUser.detail())
        .containsAnyOf("Code: 192.", "Code: 516.")
        .endsWith("(check the connection's user and password)");

    ProbeOutcome unknownDatabase =
        probe(ClickHouseFixture.URL, "user: dfe\npassword: dfe-secret\ndatabase: dfe_nowhere\n");
    assertThat(unknownDatabase.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(unknownDatabase.detail())
        .contains("answered 404: Code: 81.")
        .doesNotContain("check the connection's user");
  }

  @Test
  void noServerOrAnUntrustedCertificateIsUnreachable() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    String nowhere = "http://127.0.0.1:" + closed;
    assertThat(probe(nowhere, "user: dfe\npassword: dfe-secret\n"))
        .isEqualTo(
            new ProbeOutcome(
                Verdict.UNREACHABLE,
                "SELECT 1 on "
                    + nowhere
                    + " as dfe failed: cannot connect to "
                    + nowhere
                    + ": connection refused"));

    ProbeOutcome untrusted =
        probe(ClickHouseFixture.HTTPS_URL, "user: dfe\npassword: dfe-secret\n");
    assertThat(untrusted.verdict()).isEqualTo(Verdict.UNREACHABLE);
    assertThat(untrusted.detail())
        .contains("the server's certificate is not signed by a trusted CA");
  }
}
