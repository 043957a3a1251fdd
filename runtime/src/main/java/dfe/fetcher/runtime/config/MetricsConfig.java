package dfe.fetcher.runtime.config;

import java.util.Objects;

/**
 * {@code metrics.address}: where {@code /metrics}, {@code /livez} and {@code /readyz} listen.
 *
 * @param host an IP address or host name, without IPv6 brackets (default {@code 0.0.0.0})
 * @param port 0 to 65535; 0 lets the system pick any free port (default 9090)
 */
public record MetricsConfig(String host, int port) {

  public static final MetricsConfig DEFAULT = new MetricsConfig("0.0.0.0", 9090);

  public MetricsConfig {
    Objects.requireNonNull(host, "host");
  }

  /** {@code host:port}, with brackets around an IPv6 host. */
  public String address() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
