package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.DbStore;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.Secret;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A bound {@code sources.db} connection with {@code engine: clickhouse}: a ClickHouse server read
 * over its HTTP interface, with the JDBC stores' grammar ({@link DbStore}) for its stores.
 *
 * @param id the connection id
 * @param url the HTTP interface, {@code http://host:8123} or {@code https://...} (TLS); never holds
 *     credentials (refused at load)
 * @param user sent as {@code X-ClickHouse-User}; empty: the server's {@code default} user
 * @param password sent as {@code X-ClickHouse-Key}, read afresh for each request
 * @param database the database unqualified table names are read from; empty: the user's default
 * @param compression whether answers travel gzip-compressed
 * @param connectTimeoutSecs how long a request waits to connect
 * @param queryTimeoutSecs sent as {@code max_execution_time} unless a store's settings name it (0:
 *     none)
 * @param tls the CAs an {@code https://} server's certificate is checked against; empty: the JDK's
 * @param stores its stores, in configuration order
 */
public record ClickHouseConnection(
    String id,
    URI url,
    Optional<String> user,
    Optional<Secret> password,
    Optional<String> database,
    boolean compression,
    int connectTimeoutSecs,
    int queryTimeoutSecs,
    Optional<ClickHouseTls> tls,
    List<DbStore> stores)
    implements SourceConnection {

  public ClickHouseConnection {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(tls, "tls");
    stores = List.copyOf(stores);
  }

  @Override
  public List<SourceUnit> units() {
    List<SourceUnit> units = new ArrayList<>();
    for (DbStore store : stores) {
      List<String> details = new ArrayList<>();
      details.add(
          "clickhouse "
              + url
              + database.map(name -> ", database " + name).orElse("")
              + (compression ? ", gzip" : "")
              + tls.map(trusted -> ", trusting the CAs in " + trusted.caFile()).orElse(""));
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
      } else if (store.countFirst()) {
        details.add("counted first (a query of its own: ClickHouse has no snapshot to share)");
      }
      if (!store.settings().isEmpty()) {
        details.add("settings " + store.settings());
      }
      units.add(
          new SourceUnit(
              store.unit(),
              store.enabled(),
              store.shape(),
              store.rowKey(),
              store.shape() == Shape.TAIL ? Optional.of(Mark.Kind.KEYSET) : Optional.empty(),
              details,
              store.origin(),
              store.path()));
    }
    return units;
  }

  @Override
  public OpenConnection open(SourceRuntime runtime) throws SourceException {
    return new OpenClickHouse(this, runtime);
  }

  /** {@code SELECT 1} with the credentials ({@link ClickHouseProbe}). */
  @Override
  public Optional<ProbeOutcome> probe(SourceRuntime runtime) throws InterruptedException {
    return Optional.of(new ClickHouseProbe(this).send());
  }

  /** The secrets as {@code ***}: safe to print. */
  @Override
  public String toString() {
    return "ClickHouseConnection[id="
        + id
        + ", url="
        + url
        + ", database="
        + database.orElse("")
        + ", stores="
        + stores.stream().map(DbStore::unit).toList()
        + "]";
  }
}
