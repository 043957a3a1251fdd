package dfe.fetcher.rest.auth;

import java.net.URI;
import java.util.Locale;

/**
 * A URL's origin (RFC 6454: scheme, host, port, the default port spelled out): credentials go only
 * to {@code base_url}'s.
 */
public record Origin(String scheme, String host, int port) {

  public static Origin of(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    if (port < 0) {
      port = scheme.equals("https") ? 443 : 80;
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    return new Origin(scheme, host, port);
  }

  @Override
  public String toString() {
    return scheme + "://" + host + ":" + port;
  }
}
