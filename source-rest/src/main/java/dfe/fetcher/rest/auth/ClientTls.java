package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code auth.tls}: the connection's client certificate for mutual TLS, as PEM ({@code
 * client_cert}, a certificate chain, with {@code client_key}, a PKCS#8 key secret) or as a PKCS#12
 * {@code keystore} with its {@code keystore_password}, and the CAs it trusts instead of the JDK's
 * ({@code ca_file}, a PEM bundle). Read when the connection opens; failures name the setting, never
 * a key or a password.
 */
record ClientTls(
    Optional<Path> clientCert,
    Optional<Secret> clientKey,
    Optional<Path> keystore,
    Optional<Secret> keystorePassword,
    Optional<Path> caFile,
    String at) {

  static final List<String> KEYS =
      List.of("client_cert", "client_key", "keystore", "keystore_password", "ca_file");

  ClientTls {
    Objects.requireNonNull(clientCert, "clientCert");
    Objects.requireNonNull(clientKey, "clientKey");
    Objects.requireNonNull(keystore, "keystore");
    Objects.requireNonNull(keystorePassword, "keystorePassword");
    Objects.requireNonNull(caFile, "caFile");
  }

  static Optional<ClientTls> bind(AuthSettings settings) {
    Section auth = settings.auth();
    if (auth.node("tls").isEmpty()) {
      return Optional.empty();
    }
    Section tls = auth.section("tls", KEYS);
    Path base = settings.context().baseDirectory();
    Optional<Path> clientCert = tls.string("client_cert").map(base::resolve);
    Optional<Secret> clientKey = secret(tls, "client_key", settings);
    Optional<Path> keystore = tls.string("keystore").map(base::resolve);
    Optional<Secret> keystorePassword = secret(tls, "keystore_password", settings);
    Optional<Path> caFile = tls.string("ca_file").map(base::resolve);
    if (clientCert.isPresent() != clientKey.isPresent()) {
      tls.report(
          clientCert.isPresent() ? "client_key" : "client_cert",
          "is required with " + (clientCert.isPresent() ? "client_cert" : "client_key"));
    }
    if (keystore.isPresent() && clientCert.isPresent()) {
      tls.report("keystore", "and client_cert are two ways of giving one certificate: pick one");
    }
    if (keystorePassword.isPresent() && keystore.isEmpty()) {
      tls.report("keystore_password", "applies only with keystore");
    }
    if (clientCert.isEmpty() && clientKey.isEmpty() && keystore.isEmpty() && caFile.isEmpty()) {
      tls.report("client_cert", "tls needs client_cert and client_key, keystore, or ca_file");
    }
    return Optional.of(
        new ClientTls(clientCert, clientKey, keystore, keystorePassword, caFile, tls.path()));
  }

  private static Optional<Secret> secret(Section tls, String key, AuthSettings settings) {
    return tls.string(key)
        .flatMap(spec -> settings.context().secret(spec, tls.originOf(key), tls.pathOf(key)));
  }

  /** The TLS context: the client certificate offered, the CAs trusted. */
  SSLContext context() throws SourceException {
    try {
      KeyManagerFactory keys = null;
      if (keystore.isPresent() || clientCert.isPresent()) {
        char[] password;
        KeyStore store;
        if (keystore.isPresent()) {
          password = keystorePassword.map(Secret::reveal).orElse("").toCharArray();
          store = KeyStore.getInstance("PKCS12");
          try (InputStream in = open(keystore.get(), "keystore")) {
            store.load(in, password);
          } catch (IOException e) {
            // PKCS#12 says a wrong password as an IOException; the file itself was read.
            throw new SourceException(
                at
                    + ".keystore: "
                    + keystore.get()
                    + " cannot be opened as PKCS#12 with keystore_password (a wrong password, or"
                    + " not PKCS#12)");
          }
        } else {
          password = new char[0];
          PrivateKey key = PemKeys.privateKey(clientKey.orElseThrow().reveal(), at + ".client_key");
          Certificate[] chain =
              certificates(clientCert.get(), "client_cert").toArray(new Certificate[0]);
          store = KeyStore.getInstance("PKCS12");
          store.load(null, null);
          store.setKeyEntry("client", key, password, chain);
        }
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
      }
      TrustManagerFactory trust = null;
      if (caFile.isPresent()) {
        KeyStore anchors = KeyStore.getInstance("PKCS12");
        anchors.load(null, null);
        int i = 0;
        for (Certificate ca : certificates(caFile.get(), "ca_file")) {
          anchors.setCertificateEntry("ca-" + i++, ca);
        }
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(anchors);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          keys == null ? null : keys.getKeyManagers(),
          trust == null ? null : trust.getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new SourceException(
          at + ": the TLS settings cannot be used: " + e.getClass().getSimpleName());
    }
  }

  private Collection<? extends Certificate> certificates(Path file, String key)
      throws SourceException, GeneralSecurityException {
    try (InputStream in = open(file, key)) {
      Collection<? extends Certificate> certificates =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new SourceException(at + "." + key + ": " + file + " holds no PEM certificate");
      }
      return certificates;
    } catch (IOException e) {
      throw new SourceException(at + "." + key + ": " + file + " cannot be read");
    } catch (CertificateException e) {
      throw new SourceException(at + "." + key + ": " + file + " is not a PEM certificate");
    }
  }

  private InputStream open(Path file, String key) throws SourceException {
    try {
      return Files.newInputStream(file);
    } catch (NoSuchFileException e) {
      throw new SourceException(at + "." + key + ": no such file " + file);
    } catch (IOException e) {
      throw new SourceException(at + "." + key + ": " + file + " cannot be read");
    }
  }
}
