package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.jdbc.DbStore;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

/**
 * Binds the connection keys of a {@code sources.db} connection with {@code engine: clickhouse}; its
 * stores are bound by the family with the JDBC stores' grammar. Reports every problem through the
 * section and carries on.
 */
public final class ClickHouseBinding {

  /** Keys only a JDBC connection has. */
  public static final List<String> JDBC_ONLY_KEYS = List.of("dialect", "properties", "pool");

  /** Keys only a ClickHouse connection has. */
  public static final List<String> CLICKHOUSE_ONLY_KEYS =
      List.of("database", "compression", "connect_timeout_secs", "tls");

  /** The keys of a ClickHouse connection's {@code tls} section. */
  public static final List<String> TLS_KEYS = ClickHouseTls.KEYS;

  private ClickHouseBinding() {}

  public static ClickHouseConnection bind(
      String id, Section connection, BindContext context, List<DbStore> stores) {
    for (String key : JDBC_ONLY_KEYS) {
      if (connection.node(key).isPresent()) {
        connection.report(key, "applies to JDBC connections only, not to engine: clickhouse");
      }
    }
    URI url = url(connection);
    Optional<String> user = connection.string("user");
    Optional<Secret> password =
        connection
            .string("password")
            .flatMap(
                spec ->
                    context.secret(
                        spec, connection.originOf("password"), connection.pathOf("password")));
    Optional<String> database = connection.string("database");
    if (database.isPresent() && database.get().isBlank()) {
      connection.report("database", "must not be empty; leave it out for the user's default");
    }
    boolean compression = false;
    Optional<String> compressionName = connection.string("compression");
    if (compressionName.isPresent()) {
      switch (compressionName.get()) {
        case "gzip" -> compression = true;
        case "none" -> compression = false;
        default -> connection.report("compression", "must be gzip or none");
      }
    }
    int connectTimeout = connection.smallInteger("connect_timeout_secs", 10, 1, 3_600);
    int queryTimeout = connection.smallInteger("query_timeout_secs", 0, 0, 86_400);
    Optional<ClickHouseTls> tls = ClickHouseTls.bind(connection, url, context.baseDirectory());
    return new ClickHouseConnection(
        id, url, user, password, database, compression, connectTimeout, queryTimeout, tls, stores);
  }

  /**
   * The HTTP interface's URL; one with credentials in it is refused (they go in user, password).
   */
  private static URI url(Section connection) {
    String text = connection.requiredString("url").orElse("");
    URI fallback = URI.create("http://127.0.0.1:8123");
    if (connection.node("url").isEmpty()) {
      return fallback;
    }
    URI url;
    try {
      url = new URI(text);
    } catch (URISyntaxException e) {
      connection.report("url", "is not a URL; e.g. http://127.0.0.1:8123");
      return fallback;
    }
    String scheme =
        url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      connection.report(
          "url",
          "engine: clickhouse reads the HTTP interface: the URL starts with http:// or https://"
              + " (TLS), e.g. http://127.0.0.1:8123");
      return fallback;
    }
    if (url.getRawUserInfo() != null || url.getRawQuery() != null || url.getRawFragment() != null) {
      // Name the problem, never quote the value: it may hold a password.
      connection.report(
          "url",
          "must hold no user, password or query parameters: set user and password (sent as"
              + " headers) and database as settings of their own");
      return fallback;
    }
    if (url.getHost() == null) {
      connection.report("url", "names no host; e.g. http://127.0.0.1:8123");
      return fallback;
    }
    return url;
  }
}
