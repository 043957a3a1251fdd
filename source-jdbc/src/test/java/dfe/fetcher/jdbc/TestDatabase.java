package dfe.fetcher.jdbc;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.ConfigOrigin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A database of its own for one test: a fresh PostgreSQL or MariaDB database on 127.0.0.1 with a
 * unique name (other tests may run against the same servers at the same time), an H2 in-memory
 * database, or a SQLite file; dropped on close.
 */
final class TestDatabase implements AutoCloseable {

  enum Engine {
    POSTGRES,
    MARIADB,
    H2,
    SQLITE
  }

  private static final ConfigOrigin ORIGIN = new ConfigOrigin.InFile(Path.of("test.yaml"), 1, 1);

  private final Engine engine;
  private final String name;
  private final String url;
  private final Optional<String> user;
  private final Path directory;

  private TestDatabase(
      Engine engine, String name, String url, Optional<String> user, Path directory) {
    this.engine = engine;
    this.name = name;
    this.url = url;
    this.user = user;
    this.directory = directory;
  }

  static TestDatabase create(Engine engine) {
    String name = "dfe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try {
      return switch (engine) {
        case POSTGRES -> {
          admin(engine, "CREATE DATABASE " + name);
          yield new TestDatabase(
              engine,
              name,
              "jdbc:postgresql://127.0.0.1:5432/" + name,
              Optional.of("postgres"),
              null);
        }
        case MARIADB -> {
          admin(engine, "CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
          yield new TestDatabase(
              engine, name, "jdbc:mariadb://127.0.0.1:3306/" + name, Optional.of("root"), null);
        }
        case H2 ->
            new TestDatabase(
                engine, name, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", Optional.empty(), null);
        case SQLITE -> {
          Path directory = Files.createTempDirectory("dfe-sqlite");
          yield new TestDatabase(
              engine,
              name,
              "jdbc:sqlite:" + directory.resolve(name + ".db"),
              Optional.empty(),
              directory);
        }
      };
    } catch (SQLException | IOException e) {
      throw new IllegalStateException("cannot create a test database on " + engine, e);
    }
  }

  private static void admin(Engine engine, String sql) throws SQLException {
    String adminUrl =
        engine == Engine.POSTGRES
            ? "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"
            : "jdbc:mariadb://127.0.0.1:3306/test?user=root";
    try (Connection connection = DriverManager.getConnection(adminUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  Engine engine() {
    return engine;
  }

  String url() {
    return url;
  }

  Optional<String> user() {
    return user;
  }

  /** A plain connection of the test's own, outside any pool. */
  Connection connect() throws SQLException {
    return user.isPresent()
        ? DriverManager.getConnection(url, user.get(), "")
        : DriverManager.getConnection(url);
  }

  /** Runs each statement in its own autocommitted call. */
  void execute(String... statements) {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("test setup failed on " + engine + ": " + e, e);
    }
  }

  DbConnection connection(DbStore... stores) {
    return connection(Dialect.ofUrl(url), stores);
  }

  DbConnection connection(Dialect dialect, DbStore... stores) {
    return connection(dialect, 0, stores);
  }

  private DbConnection connection(Dialect dialect, int queryTimeoutSecs, DbStore... stores) {
    return new DbConnection(
        "warehouse",
        url,
        user,
        Optional.empty(),
        Map.of(),
        dialect,
        queryTimeoutSecs,
        2,
        10,
        List.of(stores));
  }

  /** The connection opened with a pool of its own; close it. */
  OpenConnection open(DbStore... stores) {
    return open(Dialect.ofUrl(url), stores);
  }

  OpenConnection open(Dialect dialect, DbStore... stores) {
    return connection(dialect, stores)
        .open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT));
  }

  /** The connection with {@code query_timeout_secs} set, opened with a pool of its own. */
  OpenConnection openWithQueryTimeout(int queryTimeoutSecs, DbStore... stores) {
    return connection(Dialect.ofUrl(url), queryTimeoutSecs, stores)
        .open(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT));
  }

  static DbStore dump(String unit, String query) {
    return store(unit, Shape.DUMP, query, false, Optional.empty(), List.of(), 5_000, 10, 0);
  }

  static DbStore countedDump(String unit, String query) {
    return store(unit, Shape.DUMP, query, true, Optional.empty(), List.of(), 5_000, 10, 0);
  }

  static DbStore zonedDump(String unit, String query, String zone) {
    return store(
        unit, Shape.DUMP, query, false, Optional.of(ZoneId.of(zone)), List.of(), 5_000, 10, 0);
  }

  static DbStore tail(String unit, String query, List<String> key, int limit, int maxPages) {
    return store(unit, Shape.TAIL, query, false, Optional.empty(), key, limit, maxPages, 0);
  }

  static DbStore settledTail(String unit, String query, List<String> key, int settleSecs) {
    return store(unit, Shape.TAIL, query, false, Optional.empty(), key, 5_000, 10, settleSecs);
  }

  static DbStore resumableDump(
      String unit, String query, List<String> key, int chunkRows, boolean countFirst) {
    return store(
        unit,
        Shape.DUMP,
        query,
        countFirst,
        Optional.empty(),
        key,
        DbStore.DEFAULT_LIMIT,
        DbStore.DEFAULT_MAX_PAGES_PER_TICK,
        0,
        DumpResume.BY_KEY,
        chunkRows);
  }

  private static DbStore store(
      String unit,
      Shape shape,
      String query,
      boolean countFirst,
      Optional<ZoneId> zone,
      List<String> key,
      int limit,
      int maxPages,
      int settle) {
    return store(
        unit,
        shape,
        query,
        countFirst,
        zone,
        key,
        limit,
        maxPages,
        settle,
        DumpResume.NONE,
        DbStore.DEFAULT_CHUNK_ROWS);
  }

  private static DbStore store(
      String unit,
      Shape shape,
      String query,
      boolean countFirst,
      Optional<ZoneId> zone,
      List<String> key,
      int limit,
      int maxPages,
      int settle,
      DumpResume resume,
      int chunkRows) {
    return new DbStore(
        unit,
        true,
        shape,
        query,
        Optional.empty(),
        countFirst,
        zone,
        key,
        limit,
        maxPages,
        settle,
        resume,
        chunkRows,
        Map.of(),
        ORIGIN,
        "sources.db.warehouse.stores[0].unit");
  }

  @Override
  public void close() {
    try {
      switch (engine) {
        case POSTGRES -> admin(engine, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        case MARIADB -> admin(engine, "DROP DATABASE IF EXISTS " + name);
        case H2 -> execute("SHUTDOWN");
        case SQLITE -> {
          try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
              Files.deleteIfExists(file);
            }
          }
          Files.deleteIfExists(directory);
        }
      }
    } catch (SQLException | IOException e) {
      throw new IllegalStateException("cannot drop test database " + name, e);
    }
  }
}
