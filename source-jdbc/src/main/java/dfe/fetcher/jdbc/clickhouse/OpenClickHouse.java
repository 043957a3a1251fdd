package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.DbStore;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An opened ClickHouse connection: one HTTP client, and a source per enabled store. Opening
 * connects to nothing; each tick's first request does, so a server that is down fails that tick,
 * not the process.
 */
final class OpenClickHouse implements OpenConnection {

  private final ClickHouseConnection connection;
  private final ClickHouseHttp http;
  private final Map<String, RowSource> sources = new LinkedHashMap<>();

  OpenClickHouse(ClickHouseConnection connection, SourceRuntime runtime) throws SourceException {
    this.connection = connection;
    this.http = new ClickHouseHttp(connection);
    for (DbStore store : connection.stores()) {
      if (!store.enabled()) {
        continue;
      }
      sources.put(
          store.unit(),
          store.shape() == Shape.DUMP
              ? new ClickHouseDump(this, store, runtime.clock())
              : new ClickHouseTail(this, store, runtime.clock()));
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

  ClickHouseHttp http() {
    return http;
  }

  /** A store's name in messages and logs: {@code <connection>.<unit>}. */
  String nameOf(DbStore store) {
    return connection.id() + "." + store.unit();
  }

  /** The server's zone and clock, as a tick reads them before its queries. */
  record ServerClock(ZoneId zone, Instant now) {}

  /**
   * Asks the server for its zone (the zone a DateTime without one of its own is printed in) and its
   * clock (what {@code settle_secs} counts back from): once per tick, so a server restarted with
   * another zone is read right.
   */
  ServerClock serverClock(DbStore store, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String name = nameOf(store);
    return StoreQuery.run(
        http,
        name,
        "asking the server for its time zone and clock failed",
        "SELECT timezone() AS zone, toUnixTimestamp(now()) AS now",
        store.settings(),
        ZoneOffset.UTC,
        cancellation,
        (columns, answer) -> {
          if (!answer.next()) {
            throw new SourceException(name + ": the server did not say its time zone");
          }
          ValueBytes value = columns.scratch();
          try {
            value.unescapeField(answer.line(), answer.start(0), answer.end(0));
            ZoneId zone = ZoneId.of(value.text());
            value.unescapeField(answer.line(), answer.start(1), answer.end(1));
            Instant now = Instant.ofEpochSecond(Long.parseLong(value.text()));
            while (answer.next()) {
              // the one row, then the end of the answer: read to the end so it is checked
            }
            return new ServerClock(zone, now);
          } catch (DateTimeException | NumberFormatException e) {
            throw new SourceException(
                name + ": the server's time zone or clock is not one this JVM can read: " + e);
          }
        });
  }

  @Override
  public void close() {
    // The HTTP client holds no connection a tick still uses; its idle ones time out.
  }
}
