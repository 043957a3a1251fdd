package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code https://} connections against the real server's HTTPS port, whose certificate the test
 * server's own CA signed for localhost and 127.0.0.1: trusted with {@code tls.ca_file}, refused
 * without it, refused for a host name it is not for, and {@code tls} refused at load where it
 * cannot apply.
 */
@Timeout(120)
class ClickHouseTlsTest {

  private static final String DATABASE = "dfe_tls";
  private static final String STORE =
      "{unit: hosts, shape: dump, query: \"SELECT * FROM hosts ORDER BY id\", count_first: true}";

  @TempDir Path directory;

  @BeforeAll
  static void table() throws Exception {
    ClickHouseFixture.ensureTlsServer();
    ClickHouseFixture.freshDatabase(DATABASE);
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".hosts (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + ".hosts SELECT number, concat('host-', toString(number)) FROM numbers(100)");
  }

  private static ClickHouseConnection connection(String url, String tls) {
    return ClickHouseFixture.connection(
        "wh",
        "engine: clickhouse\nurl: "
            + url
            + "\nuser: dfe\npassword: dfe-secret\ndatabase: "
            + DATABASE
            + "\n"
            + tls
            + "stores:\n  - "
            + STORE
            + "\n");
  }

  private static String trusting(Path caFile) {
    return "tls: {ca_file: \"" + caFile + "\"}\n";
  }

  @Test
  void aDumpOverHttpsWithTheCaTrustedLandsTheRows() throws Exception {
    for (String url :
        new String[] {
          ClickHouseFixture.HTTPS_URL, "https://localhost:" + ClickHouseFixture.HTTPS_PORT
        }) {
      EventSink sink =
          ClickHouseFixture.read(
              connection(url, trusting(ClickHouseFixture.caFile())), "hosts", Optional.empty());
      assertThat(sink.events).as(url).containsExactly("begin", "end");
      assertThat(sink.records).hasSize(100);
      assertThat(sink.records.get(99)).isEqualTo("{\"id\":99,\"name\":\"host-99\"}");
    }
  }

  @Test
  void withoutTheCaTheTickFailsNamingTheStoreAndWhatToSet() {
    ClickHouseConnection connection = connection(ClickHouseFixture.HTTPS_URL, "");
    assertThatThrownBy(() -> ClickHouseFixture.read(connection, "hosts", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .startsWith("wh.hosts: ")
                    .contains(
                        "the TLS handshake with "
                            + ClickHouseFixture.HTTPS_URL
                            + " failed: the server's certificate is not signed by a trusted CA"
                            + " (none of the JDK's; set tls.ca_file to the bundle of its CA)")
                    .doesNotContain("dfe-secret", "\n", "\tat "));
  }

  @Test
  void aCaThatDidNotSignTheCertificateIsRefusedNamingTheSetting() throws Exception {
    // Another CA, made here as the script makes the server's.
    Path other = directory.resolve("other-ca.pem");
    Process openssl =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=another CA",
                "-keyout",
                directory.resolve("other-ca.key").toString(),
                "-out",
                other.toString())
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("openssl.log").toFile())
            .start();
    assertThat(openssl.waitFor()).as("openssl req").isZero();
    ClickHouseConnection connection = connection(ClickHouseFixture.HTTPS_URL, trusting(other));
    assertThatThrownBy(() -> ClickHouseFixture.read(connection, "hosts", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining(
            "not signed by a trusted CA (none of those in sources.db.wh.tls.ca_file, "
                + other
                + ")");
  }

  @Test
  void aHostTheCertificateIsNotForIsRefused() throws Exception {
    // 127.0.0.2 is loopback too, but not in the certificate: a relay there hands the bytes to the
    // real server, so the handshake is the server's own.
    try (Relay relay = new Relay(InetAddress.getByName("127.0.0.2"))) {
      String url = "https://127.0.0.2:" + relay.port();
      ClickHouseConnection connection = connection(url, trusting(ClickHouseFixture.caFile()));
      assertThatThrownBy(() -> ClickHouseFixture.read(connection, "hosts", Optional.empty()))
          .isInstanceOf(SourceException.class)
          .satisfies(
              e ->
                  assertThat(e.getMessage())
                      .startsWith("wh.hosts: ")
                      .contains(
                          "the TLS handshake with "
                              + url
                              + " failed: the server's certificate is not for host 127.0.0.2")
                      .doesNotContain("dfe-secret", "\n"));
    }
  }

  @Test
  void tlsOnAnHttpUrlOrAMissingCaFileIsRefusedAtLoad() throws Exception {
    String store = "stores:\n  - {unit: a, shape: dump, query: \"SELECT 1\"}\n";
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: http://127.0.0.1:8123\n"
                    + trusting(ClickHouseFixture.caFile())
                    + store))
        .singleElement()
        .asString()
        .contains("sources.db.wh.tls.ca_file: applies only to an https:// url");
    Path missing = directory.resolve("missing.pem");
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: https://127.0.0.1:8443\n" + trusting(missing) + store))
        .singleElement()
        .asString()
        .contains("sources.db.wh.tls.ca_file: no such file " + missing);
    Path garbage = Files.writeString(directory.resolve("garbage.pem"), "not a certificate\n");
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: https://127.0.0.1:8443\n" + trusting(garbage) + store))
        .singleElement()
        .asString()
        .contains("sources.db.wh.tls.ca_file: " + garbage);
    assertThat(
            ClickHouseFixture.problems(
                "engine: clickhouse\nurl: https://127.0.0.1:8443\ntls: {client_cert: x.pem}\n"
                    + store))
        .anySatisfy(p -> assertThat(p).contains("sources.db.wh.tls.client_cert"))
        .anySatisfy(p -> assertThat(p).contains("sources.db.wh.tls.ca_file: is required"));
    assertThat(
            ClickHouseFixture.problems(
                "url: jdbc:h2:mem:x\n" + trusting(ClickHouseFixture.caFile()) + store))
        .anySatisfy(
            p -> assertThat(p).contains("sources.db.wh.tls: applies to engine: clickhouse"));
  }

  @Test
  void theUnitSaysWhichCasItTrusts() {
    ClickHouseConnection connection =
        connection(ClickHouseFixture.HTTPS_URL, trusting(ClickHouseFixture.caFile()));
    assertThat(connection.units().get(0).details().get(0))
        .isEqualTo(
            "clickhouse "
                + ClickHouseFixture.HTTPS_URL
                + ", database "
                + DATABASE
                + ", trusting the CAs in "
                + ClickHouseFixture.caFile());
  }

  /** Relays TCP connections to the server's HTTPS port, byte for byte, from another address. */
  private static final class Relay implements AutoCloseable {
    private final ServerSocket server;
    private final Thread acceptor;

    Relay(InetAddress address) throws IOException {
      server = new ServerSocket();
      server.bind(new InetSocketAddress(address, 0));
      acceptor = new Thread(this::accept, "tls-relay");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          Socket upstream = new Socket("127.0.0.1", ClickHouseFixture.HTTPS_PORT);
          pump(client, upstream);
          pump(upstream, client);
        } catch (IOException e) {
          return;
        }
      }
    }

    private static void pump(Socket from, Socket to) {
      Thread thread =
          new Thread(
              () -> {
                try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                  in.transferTo(out);
                } catch (IOException ignored) {
                  // one side closed: the other follows
                } finally {
                  closeQuietly(from);
                  closeQuietly(to);
                }
              },
              "tls-relay-pump");
      thread.setDaemon(true);
      thread.start();
    }

    private static void closeQuietly(Socket socket) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
