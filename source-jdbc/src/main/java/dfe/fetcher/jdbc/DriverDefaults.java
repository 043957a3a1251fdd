package dfe.fetcher.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The driver properties a connection gets unless its {@code properties} say otherwise: TCP
 * keep-alive, so a peer that vanished is noticed, and a socket read timeout, so a half-open
 * connection cannot hold a tick forever. The timeout is generous (30 minutes without a byte from
 * the server) because a count or a query's first row may be slow to come; lower or raise it per
 * connection with the driver's own property.
 */
final class DriverDefaults {

  static final int SOCKET_TIMEOUT_SECS = 30 * 60;

  private DriverDefaults() {}

  /** The defaults for {@code dialect}'s drivers, overlaid by the operator's {@code properties}. */
  static Map<String, String> with(Dialect dialect, Map<String, String> properties) {
    Map<String, String> effective = new LinkedHashMap<>();
    switch (dialect) {
      case POSTGRES -> {
        // pgjdbc counts in seconds.
        effective.put("tcpKeepAlive", "true");
        effective.put("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECS));
      }
      case MYSQL -> {
        // MariaDB Connector/J and MySQL Connector/J count in milliseconds.
        effective.put("tcpKeepAlive", "true");
        effective.put("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECS * 1_000));
      }
      case SQLITE, H2, MSSQL, ORACLE, CLICKHOUSE, GENERIC -> {
        // In-process engines need none; for the others the operator sets the driver's own.
      }
    }
    effective.putAll(properties);
    return effective;
  }
}
