package dfe.fetcher.rest;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates made for one test with the JDK's keytool: a server's for 127.0.0.1 and a
 * client's, each as a PKCS#12 keystore and as PEM (the certificate, and the client's PKCS#8 key).
 */
final class TlsMaterial {

  static final String SERVER_PASSWORD = "server-pass";
  static final String CLIENT_PASSWORD = "client-pass-SECRET";
  static final String CLIENT_NAME = "CN=dfe-fetcher-test-client";

  final Path serverKeystore;
  final Path serverCert;
  final Path clientKeystore;
  final Path clientCert;
  final Path clientKey;

  private TlsMaterial(Path directory) throws Exception {
    serverKeystore = directory.resolve("server.p12");
    serverCert = directory.resolve("server.pem");
    clientKeystore = directory.resolve("client.p12");
    clientCert = directory.resolve("client.pem");
    clientKey = directory.resolve("client-key.pem");
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        serverKeystore.toString(),
        "-storepass",
        SERVER_PASSWORD);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "server",
        "-keystore",
        serverKeystore.toString(),
        "-storepass",
        SERVER_PASSWORD,
        "-file",
        serverCert.toString());
    keytool(
        "-genkeypair",
        "-alias",
        "client",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        CLIENT_NAME,
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        clientKeystore.toString(),
        "-storepass",
        CLIENT_PASSWORD);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "client",
        "-keystore",
        clientKeystore.toString(),
        "-storepass",
        CLIENT_PASSWORD,
        "-file",
        clientCert.toString());
    Key key = load(clientKeystore, CLIENT_PASSWORD).getKey("client", CLIENT_PASSWORD.toCharArray());
    Files.writeString(
        clientKey,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded())
            + "\n-----END PRIVATE KEY-----\n",
        StandardCharsets.US_ASCII);
  }

  static TlsMaterial create(Path directory) throws Exception {
    return new TlsMaterial(directory);
  }

  /** The server's context: its own certificate, and the client's as the one it trusts. */
  SSLContext serverContext() throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(load(serverKeystore, SERVER_PASSWORD), SERVER_PASSWORD.toCharArray());
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    Certificate client = load(clientKeystore, CLIENT_PASSWORD).getCertificate("client");
    trusted.setCertificateEntry("client", client);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }

  private static KeyStore load(Path file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new AssertionError("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
