package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A ClickHouse connection's {@code tls} section: {@code ca_file}, a PEM bundle of the CAs an {@code
 * https://} server's certificate is checked against instead of the JDK's (the key and its meaning
 * are those of a REST connection's {@code auth.tls.ca_file}). The host name is checked against the
 * certificate either way. Bound at load, where a file that is missing or a {@code tls} on an {@code
 * http://} URL is refused; read when the connection opens.
 *
 * @param caFile the bundle, resolved against the configuration's directory
 * @param at the setting's path ({@code sources.db.<id>.tls.ca_file}), for messages
 */
record ClickHouseTls(Path caFile, String at) {

  static final List<String> KEYS = List.of("ca_file");

  ClickHouseTls {
    Objects.requireNonNull(caFile, "caFile");
    Objects.requireNonNull(at, "at");
  }

  /** Binds {@code connection.tls}; empty when absent or refused (reported on the section). */
  static Optional<ClickHouseTls> bind(Section connection, URI url, Path baseDirectory) {
    if (connection.node("tls").isEmpty()) {
      return Optional.empty();
    }
    Section tls = connection.section("tls", KEYS);
    Optional<String> caFile = tls.string("ca_file");
    if (caFile.isEmpty()) {
      tls.report("ca_file", "is required with tls: the PEM bundle of the CAs to trust");
      return Optional.empty();
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https")) {
      tls.report(
          "ca_file", "applies only to an https:// url: an http:// connection has no TLS to trust");
      return Optional.empty();
    }
    Path file = baseDirectory.resolve(caFile.get());
    if (!Files.isRegularFile(file)) {
      tls.report("ca_file", "no such file " + file);
      return Optional.empty();
    }
    ClickHouseTls bound = new ClickHouseTls(file, tls.pathOf("ca_file"));
    try {
      bound.certificates();
    } catch (SourceException | GeneralSecurityException e) {
      String message = String.valueOf(e.getMessage());
      tls.report(
          "ca_file",
          message.startsWith(bound.at() + ": ")
              ? message.substring(bound.at().length() + 2)
              : file + " cannot be read as PEM certificates");
      return Optional.empty();
    }
    return Optional.of(bound);
  }

  /** A TLS context trusting the bundle's CAs only. */
  SSLContext context() throws SourceException {
    try {
      KeyStore anchors = KeyStore.getInstance("PKCS12");
      anchors.load(null, null);
      int i = 0;
      for (Certificate ca : certificates()) {
        anchors.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(anchors);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new SourceException(
          at + ": " + caFile + " cannot be used as trusted CAs: " + e.getClass().getSimpleName());
    }
  }

  private Collection<? extends Certificate> certificates()
      throws SourceException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(caFile)) {
      Collection<? extends Certificate> certificates =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new SourceException(at + ": " + caFile + " holds no PEM certificate");
      }
      return certificates;
    } catch (NoSuchFileException e) {
      throw new SourceException(at + ": no such file " + caFile);
    } catch (IOException e) {
      throw new SourceException(at + ": " + caFile + " cannot be read");
    } catch (CertificateException e) {
      throw new SourceException(at + ": " + caFile + " is not a PEM certificate bundle");
    }
  }
}
