package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What every mode takes beside its own keys: the origins beyond {@code base_url}'s that credentials
 * may go to ({@code allow_hosts}), what a request to any other origin does ({@code other_origins}:
 * goes {@code without_credentials}, the default, or is refused with {@code refuse}), the
 * connection's TLS ({@code tls}, {@link ClientTls}) and its HTTP proxy ({@code proxy}).
 *
 * @param at the config path of {@code auth}, for messages
 */
public record AuthReach(
    List<Origin> allowHosts,
    boolean refuseOtherOrigins,
    Optional<ClientTls> tls,
    Optional<InetSocketAddress> proxy,
    String at) {

  /** The keys under {@code auth} every mode takes. */
  static final List<String> KEYS = List.of("allow_hosts", "other_origins", "tls", "proxy");

  /** Credentials to {@code base_url}'s origin only, the JDK's TLS, no proxy. */
  static final AuthReach BASE_ORIGIN_ONLY =
      new AuthReach(List.of(), false, Optional.empty(), Optional.empty(), "auth");

  public AuthReach {
    allowHosts = List.copyOf(allowHosts);
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(proxy, "proxy");
    Objects.requireNonNull(at, "at");
  }

  /** Whether this sets nothing: credentials to the base origin only, the JDK's TLS, no proxy. */
  boolean isBaseOriginOnly() {
    return allowHosts.isEmpty() && !refuseOtherOrigins && tls.isEmpty() && proxy.isEmpty();
  }

  static AuthReach bind(AuthSettings settings) {
    Section auth = settings.auth();
    List<Origin> allowHosts = new ArrayList<>();
    for (YamlNode item : auth.list("allow_hosts").orElse(List.of())) {
      auth.text(item, auth.pathOf("allow_hosts"))
          .ifPresent(
              text ->
                  origin(text)
                      .ifPresentOrElse(
                          allowHosts::add,
                          () ->
                              auth.report(
                                  item,
                                  auth.pathOf("allow_hosts"),
                                  "'"
                                      + text
                                      + "' is not an origin: an http or https URL with a host,"
                                      + " without a path, e.g. https://uploads.example.com")));
    }
    boolean refuse = false;
    Optional<String> others = auth.string("other_origins");
    if (others.isPresent()) {
      switch (others.get()) {
        case "without_credentials" -> refuse = false;
        case "refuse" -> refuse = true;
        default ->
            auth.report(
                "other_origins",
                "must be without_credentials or refuse, not '" + others.get() + "'");
      }
    }
    Optional<InetSocketAddress> proxy = Optional.empty();
    Optional<String> proxyText = auth.string("proxy");
    if (proxyText.isPresent()) {
      proxy = proxy(proxyText.get());
      if (proxy.isEmpty()) {
        auth.report(
            "proxy",
            "must be http://HOST:PORT (no user, path or query; proxy credentials are not"
                + " supported)");
      }
    }
    return new AuthReach(allowHosts, refuse, ClientTls.bind(settings), proxy, auth.path());
  }

  private static Optional<Origin> origin(String text) {
    try {
      URI uri = new URI(text);
      boolean web =
          uri.getScheme() != null
              && (uri.getScheme().equalsIgnoreCase("https")
                  || uri.getScheme().equalsIgnoreCase("http"));
      if (!web
          || uri.getHost() == null
          || uri.getRawUserInfo() != null
          || uri.getRawQuery() != null
          || !(uri.getRawPath() == null
              || uri.getRawPath().isEmpty()
              || uri.getRawPath().equals("/"))) {
        return Optional.empty();
      }
      return Optional.of(Origin.of(uri));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private static Optional<InetSocketAddress> proxy(String text) {
    try {
      URI uri = new URI(text);
      if (uri.getScheme() == null
          || !uri.getScheme().equalsIgnoreCase("http")
          || uri.getHost() == null
          || uri.getPort() < 0
          || uri.getRawUserInfo() != null
          || uri.getRawQuery() != null
          || !(uri.getRawPath() == null
              || uri.getRawPath().isEmpty()
              || uri.getRawPath().equals("/"))) {
        return Optional.empty();
      }
      return Optional.of(InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort()));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /**
   * Sets the client's TLS context and proxy, read now.
   *
   * @throws SourceException naming the TLS setting at fault, never a key or a password
   */
  public void configure(HttpClient.Builder client) throws SourceException {
    if (tls.isPresent()) {
      client.sslContext(tls.get().context());
    }
    if (proxy.isPresent()) {
      InetSocketAddress address = proxy.get();
      client.proxy(
          ProxySelector.of(new InetSocketAddress(address.getHostString(), address.getPort())));
    }
  }
}
