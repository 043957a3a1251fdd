package dfe.fetcher.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.Secret;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An opened database connection: a HikariCP pool of its own, and a source per enabled store. The
 * pool opens no connection until a tick asks (so a database that is down fails that tick, not the
 * process), and the password is read again before each tick, so a rotated secret is used by the
 * next connection the pool opens.
 */
final class OpenDatabase implements OpenConnection {

  private final DbConnection connection;
  private final HikariDataSource pool;
  private final RedactingDataSource dataSource;
  private final Redaction redaction;
  private final Map<String, RowSource> sources = new LinkedHashMap<>();
  private volatile String passwordInUse;

  OpenDatabase(DbConnection connection, SourceRuntime runtime) {
    this.connection = connection;
    this.redaction = Redaction.of(connection);
    HikariConfig config = new HikariConfig();
    config.setPoolName("dfe-" + connection.id());
    passwordInUse = connection.password().map(Secret::reveal).orElse(null);
    Map<String, String> configured = new LinkedHashMap<>();
    connection.properties().forEach((name, value) -> configured.put(name, value.reveal()));
    Map<String, String> properties = DriverDefaults.with(connection.dialect(), configured);
    this.dataSource =
        new RedactingDataSource(
            connection.url(), connection.user(), passwordInUse, properties, redaction);
    config.setDataSource(dataSource);
    config.setMaximumPoolSize(connection.poolMaxSize());
    config.setMinimumIdle(0);
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(connection.connectionTimeoutSecs() * 1_000L);
    if (connection.dialect() == Dialect.MYSQL) {
      // TIMESTAMP columns are instants converted to the session's zone: make that UTC, so the
      // server's and the JVM's zones change no value.
      config.setConnectionInitSql("SET time_zone = '+00:00'");
    } else if (connection.dialect() == Dialect.H2) {
      // H2 computes a whole result before handing over its first row unless told to be lazy.
      config.setConnectionInitSql("SET LAZY_QUERY_EXECUTION TRUE");
    }
    this.pool = new HikariDataSource(config);
    for (DbStore store : connection.stores()) {
      if (!store.enabled()) {
        continue;
      }
      RowSource source;
      if (store.resumable()) {
        source = new ResumableDump(this, store, runtime.clock());
      } else if (store.shape() == Shape.DUMP) {
        source = new DumpStore(this, store, runtime.clock());
      } else {
        source = new KeysetTail(this, store, runtime.clock());
      }
      sources.put(store.unit(), source);
    }
  }

  @Override
  public RowSource source(String unit) {
    RowSource source = sources.get(unit);
    if (source == null) {
      throw new IllegalArgumentException("no enabled store named " + unit);
    }
    return source;
  }

  DbConnection settings() {
    return connection;
  }

  /** A store's name in messages and logs: {@code <connection>.<unit>}. */
  String nameOf(DbStore store) {
    return connection.id() + "." + store.unit();
  }

  Redaction redaction() {
    return redaction;
  }

  /**
   * A connection from the pool, with the password read afresh.
   *
   * @throws SourceException naming the connection and the SQL state when none can be had
   */
  Connection borrow(String store) throws SourceException {
    refreshPassword();
    try {
      return pool.getConnection();
    } catch (SQLException e) {
      throw redaction.failure(store, "cannot connect to " + JdbcUrls.masked(connection.url()), e);
    }
  }

  private void refreshPassword() throws SourceException {
    if (connection.password().isEmpty()) {
      return;
    }
    String now;
    try {
      now = connection.password().get().reveal();
    } catch (RuntimeException e) {
      throw new SourceException(connection.id() + ": " + e.getMessage(), e);
    }
    if (!now.equals(passwordInUse)) {
      dataSource.password(now);
      passwordInUse = now;
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
