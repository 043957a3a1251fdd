package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Shape;
import dfe.fetcher.jdbc.clickhouse.ClickHouseBinding;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.UnitNames;
import dfe.fetcher.source.config.YamlNode;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sources.db}: connections to relational databases over JDBC, each with dump and tail
 * stores.
 *
 * <pre>{@code
 * sources:
 *   db:
 *     crm:
 *       url: jdbc:postgresql://127.0.0.1:5432/crm
 *       user: crm
 *       password: env:CRM_PASSWORD
 *       properties: {ssl: "true"}
 *       dialect: postgres             # detected from the URL when left out
 *       query_timeout_secs: 0
 *       pool: {max_size: 2, connection_timeout_secs: 10}
 *       topic: crm
 *       stores:
 *         - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
 *         - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id], limit: 5000}
 * }</pre>
 */
public final class JdbcSourceFamily implements SourceFamily {

  private static final String ENGINE_JDBC = "jdbc";
  private static final String ENGINE_CLICKHOUSE = "clickhouse";

  static final List<String> CONNECTION_KEYS =
      List.of(
          "engine",
          "url",
          "user",
          "password",
          "properties",
          "dialect",
          "query_timeout_secs",
          "pool",
          "database",
          "compression",
          "connect_timeout_secs",
          "tls",
          "stores");
  static final List<String> POOL_KEYS = List.of("max_size", "connection_timeout_secs");
  static final List<String> STORE_KEYS =
      List.of(
          "unit",
          "enabled",
          "shape",
          "query",
          "row_key",
          "count_first",
          "zone",
          "key",
          "limit",
          "max_pages_per_tick",
          "settle_secs",
          "resume",
          "chunk_rows",
          "settings");

  @Override
  public String name() {
    return "db";
  }

  @Override
  public List<String> connectionKeys() {
    return CONNECTION_KEYS;
  }

  @Override
  public List<List<String>> knownKeys() {
    return List.of(CONNECTION_KEYS, POOL_KEYS, ClickHouseBinding.TLS_KEYS, STORE_KEYS);
  }

  @Override
  public SourceConnection bind(String id, Section connection, BindContext context) {
    // engine: clickhouse reads ClickHouse over its HTTP interface with the same store grammar;
    // docs/architecture.md says why it is an engine of sources.db, not a family of its own.
    String engine = connection.string("engine").orElse(ENGINE_JDBC);
    if (engine.equals(ENGINE_CLICKHOUSE)) {
      return ClickHouseBinding.bind(id, connection, context, stores(connection, true));
    }
    if (!engine.equals(ENGINE_JDBC)) {
      connection.report(
          "engine",
          "unknown engine '" + engine + "'; one of jdbc, clickhouse (jdbc when left out)");
    }
    for (String key : ClickHouseBinding.CLICKHOUSE_ONLY_KEYS) {
      if (connection.node(key).isPresent()) {
        connection.report(key, "applies to engine: clickhouse only");
      }
    }
    String url =
        connection
            .requiredString("url")
            .orElse("")
            .replace("{config_dir}", context.baseDirectory().toString());
    if (connection.node("url").isPresent() && !url.startsWith("jdbc:")) {
      // The URL may hold a password: name the problem, never quote the value.
      connection.report(
          "url", "must be a JDBC URL starting with jdbc:, e.g. jdbc:postgresql://host/db");
    }
    Optional<String> user = connection.string("user");
    Optional<Secret> password =
        connection
            .string("password")
            .flatMap(
                spec ->
                    context.secret(
                        spec, connection.originOf("password"), connection.pathOf("password")));
    Map<String, Secret> properties = new LinkedHashMap<>();
    for (YamlNode.Entry property : connection.namedEntries("properties").orElse(List.of())) {
      String at = Section.join(connection.pathOf("properties"), property.key());
      connection
          .text(property.value(), at)
          .flatMap(spec -> context.secret(spec, property.value().origin(), at))
          .ifPresent(secret -> properties.put(property.key(), secret));
    }
    Dialect dialect = Dialect.ofUrl(url);
    Optional<String> dialectName = connection.string("dialect");
    if (dialectName.isPresent()) {
      Optional<Dialect> named = Dialect.named(dialectName.get());
      if (named.isPresent()) {
        dialect = named.get();
      } else {
        connection.report(
            "dialect",
            "unknown dialect '"
                + dialectName.get()
                + "'; one of "
                + String.join(", ", Dialect.names()));
      }
    }
    int queryTimeout = connection.smallInteger("query_timeout_secs", 0, 0, 86_400);
    Section pool = connection.section("pool", POOL_KEYS);
    int poolSize = pool.smallInteger("max_size", 2, 1, 100);
    int connectionTimeout = pool.smallInteger("connection_timeout_secs", 10, 1, 3_600);
    List<DbStore> stores = stores(connection, false);
    return new DbConnection(
        id,
        url,
        user,
        password,
        properties,
        dialect,
        queryTimeout,
        poolSize,
        connectionTimeout,
        stores);
  }

  private static List<DbStore> stores(Section connection, boolean clickhouse) {
    return UnitNames.bindEach(
        connection,
        "stores",
        "store",
        STORE_KEYS,
        "connection",
        store -> store(store, clickhouse),
        DbStore::unit);
  }

  private static DbStore store(Section store, boolean clickhouse) {
    String unit = store.requiredName("unit");
    boolean enabled = store.bool("enabled", true);
    Shape shape = store.shape("shape");
    String query = store.requiredString("query").orElse("");
    if (store.node("query").isPresent() && query.isBlank()) {
      store.report("query", "must not be empty");
    }
    if (query.trim().endsWith(";")) {
      store.report("query", "must not end with ';': it is wrapped as a derived table");
    }
    Optional<String> rowKey = store.rowKey("row_key");
    boolean countFirst = store.bool("count_first", false);
    Optional<ZoneId> zone = Optional.empty();
    Optional<String> zoneName = store.string("zone");
    if (zoneName.isPresent()) {
      try {
        zone = Optional.of(ZoneId.of(zoneName.get()));
      } catch (DateTimeException e) {
        store.report(
            "zone", "'" + zoneName.get() + "' is not a time zone, e.g. UTC or Europe/Berlin");
      }
    }
    List<String> key = new ArrayList<>();
    for (YamlNode item : store.list("key").orElse(List.of())) {
      store.text(item, store.pathOf("key")).ifPresent(key::add);
    }
    int limit = store.smallInteger("limit", DbStore.DEFAULT_LIMIT, 1, 1_000_000);
    int maxPages =
        store.smallInteger("max_pages_per_tick", DbStore.DEFAULT_MAX_PAGES_PER_TICK, 1, 100_000);
    int settle = store.smallInteger("settle_secs", 0, 0, 86_400);
    if (shape == Shape.TAIL && key.isEmpty()) {
      store.report("key", "a tail store needs its key columns, e.g. key: [id]");
    }
    DumpResume resume = DumpResume.NONE;
    Optional<String> resumeName = store.string("resume");
    boolean resumeUnknown = false;
    if (resumeName.isPresent()) {
      Optional<DumpResume> named = DumpResume.named(resumeName.get());
      if (named.isPresent()) {
        resume = named.get();
      } else {
        resumeUnknown = true; // reported once, here: what else it would allow is not guessed
        store.report(
            "resume",
            "unknown resume mode '"
                + resumeName.get()
                + "'; one of "
                + String.join(", ", DumpResume.names()));
      }
    }
    int chunkRows = store.smallInteger("chunk_rows", DbStore.DEFAULT_CHUNK_ROWS, 1, 1_000_000);
    if (shape == Shape.TAIL) {
      for (String dumpOnly : List.of("resume", "chunk_rows")) {
        if (store.node(dumpOnly).isPresent()) {
          store.report(
              dumpOnly,
              "applies to dump stores only (resume: by_key); a tail resumes from its key anyway");
        }
      }
    }
    boolean byKey = shape == Shape.DUMP && resume == DumpResume.BY_KEY;
    if (byKey && key.isEmpty()) {
      store.report(
          "resume",
          "resume: by_key needs the store's unique key columns, e.g. key: [id]: the dump reads in"
              + " key order and continues after the last key that landed");
    }
    if (shape == Shape.DUMP && !byKey && !resumeUnknown && store.node("chunk_rows").isPresent()) {
      store.report("chunk_rows", "applies to a dump with resume: by_key only");
    }
    if (shape == Shape.DUMP) {
      List<String> tailOnly =
          byKey || resumeUnknown
              ? List.of("limit", "max_pages_per_tick", "settle_secs")
              : List.of("key", "limit", "max_pages_per_tick", "settle_secs");
      for (String setting : tailOnly) {
        if (store.node(setting).isPresent()) {
          store.report(
              setting,
              setting.equals("key")
                  ? "applies to tail stores and to dumps with resume: by_key only"
                  : "applies to tail stores only");
        }
      }
    }
    if (shape == Shape.TAIL && store.node("count_first").isPresent()) {
      store.report("count_first", "applies to dump stores only");
    }
    Map<String, String> settings = settings(store, clickhouse);
    if (clickhouse) {
      if (store.node("resume").isPresent()) {
        store.report("resume", "engine: clickhouse has no resumable dumps (resume: by_key)");
      }
      if (store.node("zone").isPresent()) {
        store.report(
            "zone",
            "a ClickHouse DateTime carries its zone (the column's or the server's): engine:"
                + " clickhouse takes no zone");
      }
    }
    return new DbStore(
        unit,
        enabled,
        shape,
        query.trim(),
        rowKey,
        countFirst,
        zone,
        key,
        limit,
        maxPages,
        settle,
        resume,
        chunkRows,
        settings,
        store.originOf("unit"),
        store.pathOf("unit"));
  }

  /**
   * A ClickHouse store's {@code settings}: names of ClickHouse settings and their values, sent with
   * each of the store's queries; refused on a JDBC store.
   */
  private static Map<String, String> settings(Section store, boolean clickhouse) {
    Map<String, String> settings = new LinkedHashMap<>();
    Optional<List<YamlNode.Entry>> entries = store.namedEntries("settings");
    if (entries.isEmpty()) {
      return settings;
    }
    if (!clickhouse) {
      store.report("settings", "applies to engine: clickhouse stores only");
      return settings;
    }
    for (YamlNode.Entry entry : entries.get()) {
      String at = Section.join(store.pathOf("settings"), entry.key());
      if (!entry.key().matches("[a-z][a-z0-9_]*")) {
        store.report(entry.value(), at, "is not a ClickHouse setting name (lower case, digits, _)");
        continue;
      }
      if (RESERVED_SETTINGS.contains(entry.key())) {
        store.report(
            entry.value(), at, "is set by the fetcher itself (query id, database, compression)");
        continue;
      }
      if (entry.value() instanceof YamlNode.Scalar scalar
          && scalar.kind() != YamlNode.ScalarKind.NULL) {
        settings.put(
            entry.key(),
            scalar.kind() == YamlNode.ScalarKind.BOOLEAN
                ? (scalar.bool() ? "1" : "0")
                : scalar.text());
      } else {
        store.report(entry.value(), at, "must be a number, a string or a boolean");
      }
    }
    return settings;
  }

  private static final List<String> RESERVED_SETTINGS =
      List.of("query_id", "database", "enable_http_compression", "user", "password", "query");
}
