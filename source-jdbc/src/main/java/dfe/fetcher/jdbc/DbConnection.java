package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A bound {@code sources.db} connection: where the database is, how to log in (secrets resolved on
 * use), the pool, and its stores. Opening it creates a HikariCP pool of its own, closed with it.
 *
 * @param id the connection id
 * @param url the JDBC URL; printed only {@linkplain JdbcUrls#masked masked}
 * @param user the user, when not in the URL
 * @param password the password, when not in the URL
 * @param properties driver properties; values may be secrets
 * @param dialect how its SQL is written
 * @param queryTimeoutSecs a statement running longer is cancelled by the driver (0: no limit)
 * @param poolMaxSize connections at most in the pool
 * @param connectionTimeoutSecs how long a tick waits for a connection before it fails
 * @param stores its stores, in configuration order
 */
public record DbConnection(
    String id,
    String url,
    Optional<String> user,
    Optional<Secret> password,
    Map<String, Secret> properties,
    Dialect dialect,
    int queryTimeoutSecs,
    int poolMaxSize,
    int connectionTimeoutSecs,
    List<DbStore> stores)
    implements SourceConnection {

  public DbConnection {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    properties = Map.copyOf(properties);
    Objects.requireNonNull(dialect, "dialect");
    stores = List.copyOf(stores);
  }

  @Override
  public List<SourceUnit> units() {
    List<SourceUnit> units = new ArrayList<>();
    for (DbStore store : stores) {
      List<String> details = new ArrayList<>();
      details.add("database " + JdbcUrls.masked(url) + " (" + dialect.configName() + ")");
      if (store.shape() == Shape.TAIL) {
        details.add(
            "key "
                + String.join(", ", store.key())
                + ", "
                + store.limit()
                + " rows a page, at most "
                + store.maxPagesPerTick()
                + " pages a tick"
                + (store.settleSecs() > 0 ? ", settle " + store.settleSecs() + "s" : ""));
      } else {
        if (store.resumable()) {
          details.add(
              "resumable by key "
                  + String.join(", ", store.key())
                  + ", "
                  + store.chunkRows()
                  + " rows a chunk");
        }
        if (store.countFirst()) {
          details.add(store.resumable() ? "counted first (an estimate)" : "counted first");
        }
      }
      units.add(
          new SourceUnit(
              store.unit(),
              store.enabled(),
              store.shape(),
              store.rowKey(),
              markKindOf(store),
              details,
              store.origin(),
              store.path()));
    }
    return units;
  }

  private static Optional<Mark.Kind> markKindOf(DbStore store) {
    if (store.shape() == Shape.TAIL) {
      return Optional.of(Mark.Kind.KEYSET);
    }
    return store.resumable() ? Optional.of(Mark.Kind.DUMP_RESUME) : Optional.empty();
  }

  @Override
  public OpenConnection open(SourceRuntime runtime) {
    return new OpenDatabase(this, runtime);
  }

  /** The URL masked, the secrets as {@code ***}: safe to print. */
  @Override
  public String toString() {
    return "DbConnection[id="
        + id
        + ", url="
        + JdbcUrls.masked(url)
        + ", dialect="
        + dialect.configName()
        + ", stores="
        + stores.stream().map(DbStore::unit).toList()
        + "]";
  }
}
