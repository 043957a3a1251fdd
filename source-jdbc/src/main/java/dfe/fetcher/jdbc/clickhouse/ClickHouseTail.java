package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.DbStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ClickHouse {@code shape: tail} store: what is new since the checkpoint, in keyset pages, as the
 * JDBC tail reads them ({@code docs/sources-db.md}, "Tail stores"). Each page is
 *
 * <pre>{@code
 * SELECT * FROM (<query>) AS dfe_q WHERE (k1, k2) > (<typed literals>) [AND k1 < <cutoff>]
 * ORDER BY k1, k2 LIMIT <limit>
 * }</pre>
 *
 * <p>the key values rendered as typed literals ({@link KeyLiteral}). Each tick first probes the
 * query's columns ({@code LIMIT 0}) to type the key, refuses a key column that is NULL in a row,
 * and with {@code settle_secs} reads only rows whose first key column (a DateTime) is older than
 * the server's {@code now()} less the settle. ClickHouse keeps no unique constraint, so a key's
 * uniqueness is never vouched for: it is logged once per process ({@code event=key_unchecked}).
 */
final class ClickHouseTail implements RowSource {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.db");
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private final OpenClickHouse clickhouse;
  private final DbStore store;
  private final Clock clock;
  private final String name;

  ClickHouseTail(OpenClickHouse clickhouse, DbStore store, Clock clock) {
    this.clickhouse = clickhouse;
    this.store = store;
    this.clock = clock;
    this.name = clickhouse.nameOf(store);
  }

  /**
   * The key as the probe found it: its column names, the scalar each compares as, and whether any
   * may be NULL.
   */
  private record Key(List<String> names, List<ClickHouseType.Scalar> scalars, boolean mayBeNull) {}

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Optional<KeysetMark> after = checkpoint.map(mark -> (KeysetMark) mark);
    if (after.isPresent() && after.get().values().size() != store.key().size()) {
      throw new SourceException(
          name
              + ": the checkpoint holds "
              + after.get().values().size()
              + " key values but the key has "
              + store.key().size()
              + " columns ("
              + String.join(", ", store.key())
              + "); delete the unit's cursor to start over");
    }
    OpenClickHouse.ServerClock server = clickhouse.serverClock(store, cancellation);
    Key key = probe(server, cancellation);
    if (WARNED.add(name)) {
      LOG.warn(
          "event=key_unchecked store={} key={} reason=\"ClickHouse has no unique constraint: rows"
              + " with equal keys across a page boundary would be passed over\"",
          name,
          String.join(",", store.key()));
    }
    if (key.mayBeNull()) {
      refuseNullKeys(server, key, cancellation);
    }
    Optional<String> cutoff = Optional.empty();
    if (store.settleSecs() > 0) {
      if (key.scalars().get(0).kind() != ScalarKind.DATETIME) {
        throw new SourceException(
            name
                + ": settle_secs needs a DateTime as the first key column, but \""
                + key.names().get(0)
                + "\" is "
                + key.scalars().get(0).name());
      }
      cutoff =
          Optional.of(
              "toDateTime(" + server.now().minusSeconds(store.settleSecs()).getEpochSecond() + ")");
    }
    Set<KeysetMark> previousPage = Set.of();
    for (int page = 0; page < store.maxPagesPerTick(); page++) {
      cancellation.throwIfCancelled();
      PageRead read = page(server, key, after, cutoff, previousPage, sink, cancellation);
      if (read.rows() < store.limit()) {
        break;
      }
      after = read.last();
      previousPage = read.keys();
    }
  }

  private Key probe(OpenClickHouse.ServerClock server, Cancellation cancellation)
      throws SourceException, InterruptedException {
    return StoreQuery.run(
        clickhouse.http(),
        name,
        "probing the tail query's columns failed",
        "SELECT * FROM (" + store.query() + "\n) AS dfe_q LIMIT 0",
        store.settings(),
        server.zone(),
        cancellation,
        (columns, answer) -> {
          while (answer.next()) {
            // LIMIT 0: no rows; read to the end so an exception is seen
          }
          List<ClickHouseType.Scalar> scalars = new ArrayList<>();
          boolean mayBeNull = false;
          for (String column : store.key()) {
            Optional<Integer> index = columns.indexOf(column);
            if (index.isEmpty()) {
              throw new SourceException(
                  name
                      + ": the key column \""
                      + column
                      + "\" is not in the query's result (columns: "
                      + String.join(", ", columns.names())
                      + ")");
            }
            ClickHouseType type = columns.type(index.get());
            ClickHouseType.Scalar scalar = type.keyScalar();
            if (scalar == null) {
              throw new SourceException(
                  name
                      + ": the key column \""
                      + column
                      + "\" has type "
                      + type.name()
                      + ", which a keyset cannot order by; key the tail on a scalar column");
            }
            scalars.add(scalar);
            mayBeNull |= type.nullable();
          }
          return new Key(store.key(), scalars, mayBeNull);
        });
  }

  private void refuseNullKeys(OpenClickHouse.ServerClock server, Key key, Cancellation cancellation)
      throws SourceException, InterruptedException {
    List<String> tests = new ArrayList<>();
    for (String column : key.names()) {
      tests.add(KeyLiteral.identifier(column) + " IS NULL");
    }
    boolean any =
        StoreQuery.run(
            clickhouse.http(),
            name,
            "the tail's NULL key check failed",
            "SELECT 1 AS dfe_null FROM ("
                + store.query()
                + "\n) AS dfe_q WHERE "
                + String.join(" OR ", tests)
                + " LIMIT 1",
            store.settings(),
            server.zone(),
            cancellation,
            (columns, answer) -> {
              boolean found = false;
              while (answer.next()) {
                found = true;
              }
              return found;
            });
    if (any) {
      throw new SourceException(
          name
              + ": a key column ("
              + String.join(", ", key.names())
              + ") is NULL in a row: a keyset key must never be NULL; filter such rows out in the"
              + " query");
    }
  }

  /** A page's row count, its last key, and every key it held. */
  private record PageRead(int rows, Optional<KeysetMark> last, Set<KeysetMark> keys) {}

  private PageRead page(
      OpenClickHouse.ServerClock server,
      Key key,
      Optional<KeysetMark> after,
      Optional<String> cutoff,
      Set<KeysetMark> previousPage,
      RowSink sink,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    String sql = pageSql(key, after, cutoff);
    return StoreQuery.run(
        clickhouse.http(),
        name,
        "the tail query failed",
        sql,
        store.settings(),
        server.zone(),
        cancellation,
        (columns, answer) -> {
          int[] indexes = new int[key.names().size()];
          List<ClickHouseType.Scalar> scalars = new ArrayList<>();
          for (int i = 0; i < indexes.length; i++) {
            Optional<Integer> index = columns.indexOf(key.names().get(i));
            if (index.isEmpty() || columns.type(index.get()).keyScalar() == null) {
              throw new SourceException(name + ": the query's columns changed during the tick");
            }
            indexes[i] = index.get();
            scalars.add(columns.type(index.get()).keyScalar());
          }
          int count = 0;
          Optional<KeysetMark> last = after;
          Set<KeysetMark> keys = new HashSet<>();
          while (answer.next()) {
            KeysetMark mark = mark(answer, columns, indexes, scalars);
            if (previousPage.contains(mark)) {
              throw new SourceException(
                  name
                      + ": a page returned a key the page before it held: the key ("
                      + String.join(", ", store.key())
                      + ") is ordered differently from how it compares; key the tail on another"
                      + " column");
            }
            sink.row(new Row(columns.write(answer), clock.millis(), Optional.of(mark), name));
            keys.add(mark);
            last = Optional.of(mark);
            count++;
          }
          return new PageRead(count, last, keys);
        });
  }

  private KeysetMark mark(
      TsvAnswer answer, AnswerColumns columns, int[] indexes, List<ClickHouseType.Scalar> scalars)
      throws SourceException, ClickHouseType.BadValueException {
    List<KeysetMark.Value> values = new ArrayList<>(indexes.length);
    for (int i = 0; i < indexes.length; i++) {
      int at = indexes[i];
      if (ValueBytes.isNullField(answer.line(), answer.start(at), answer.end(at))) {
        throw new SourceException(
            name + ": key column \"" + store.key().get(i) + "\" is NULL in a row");
      }
      values.add(
          scalars.get(i).key(answer.line(), answer.start(at), answer.end(at), columns.scratch()));
    }
    return new KeysetMark(values);
  }

  private String pageSql(Key key, Optional<KeysetMark> after, Optional<String> cutoff)
      throws SourceException {
    List<String> columns = new ArrayList<>();
    for (String column : key.names()) {
      columns.add("dfe_q." + KeyLiteral.identifier(column));
    }
    String keyTuple = columns.size() == 1 ? columns.get(0) : "(" + String.join(", ", columns) + ")";
    List<String> conditions = new ArrayList<>();
    if (after.isPresent()) {
      List<String> literals = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        KeysetMark.Value value = after.get().values().get(i);
        ClickHouseType.Scalar scalar = key.scalars().get(i);
        String column = key.names().get(i);
        literals.add(
            KeyLiteral.of(value, scalar)
                .orElseThrow(
                    () ->
                        new SourceException(
                            name
                                + ": the checkpoint's value for key column \""
                                + column
                                + "\" is a "
                                + value.typeName()
                                + ", which a column of type "
                                + scalar.name()
                                + " does not hold; delete the unit's cursor to start over")));
      }
      conditions.add(
          keyTuple
              + " > "
              + (literals.size() == 1 ? literals.get(0) : "(" + String.join(", ", literals) + ")"));
    }
    cutoff.ifPresent(at -> conditions.add(columns.get(0) + " < " + at));
    return "SELECT * FROM ("
        + store.query()
        + "\n) AS dfe_q"
        + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions))
        + " ORDER BY "
        + String.join(", ", columns)
        + " LIMIT "
        + store.limit();
  }
}
