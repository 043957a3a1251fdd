package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code query_timeout_secs} bounds every statement a store runs against its table: a lock another
 * session holds on the table (a migration's {@code ALTER TABLE}, a forgotten {@code LOCK TABLE})
 * fails the tick once the timeout passed, in the database's words, instead of holding the tick (and
 * the connection's other units, which run after it) for as long as the lock lasts.
 */
class QueryTimeoutTest {

  private static final int TIMEOUT_SECS = 1;

  /** Far longer than the timeout: a read still waiting when this passed was never bounded. */
  private static final int WAIT_SECS = 15;

  private TestDatabase database;

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aTailWhoseTableIsLockedFailsOnceTheQueryTimeoutPassed(Engine engine) throws Exception {
    DbStore tail = TestDatabase.tail("events", "SELECT * FROM events", List.of("id"), 10, 1);

    String failure = readWhileLocked(engine, tail);

    assertThat(failure).startsWith("warehouse.events: the tail query failed " + timedOut(engine));
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aResumableDumpWhoseTableIsLockedFailsOnceTheQueryTimeoutPassed(Engine engine)
      throws Exception {
    DbStore dump =
        TestDatabase.resumableDump("events", "SELECT * FROM events", List.of("id"), 10, false);

    String failure = readWhileLocked(engine, dump);

    assertThat(failure).startsWith("warehouse.events: the dump query failed " + timedOut(engine));
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aDumpWhoseTableIsLockedFailsOnceTheQueryTimeoutPassed(Engine engine) throws Exception {
    DbStore dump = TestDatabase.dump("events", "SELECT * FROM events");

    String failure = readWhileLocked(engine, dump);

    assertThat(failure).startsWith("warehouse.events: the dump query failed " + timedOut(engine));
  }

  /** The SQL state of a statement the database ended at its timeout. */
  private static String timedOut(Engine engine) {
    return engine == Engine.POSTGRES ? "(SQL state 57014)" : "(SQL state 70100)";
  }

  /**
   * The message the store's read fails with while another session holds an exclusive lock on its
   * table; the read must end within {@link #WAIT_SECS}, with nothing handed to the sink.
   */
  private String readWhileLocked(Engine engine, DbStore store) throws Exception {
    database = TestDatabase.create(engine);
    database.execute(
        "CREATE TABLE events (id bigint PRIMARY KEY, note varchar(20) NOT NULL)",
        "INSERT INTO events VALUES (1, 'one'), (2, 'two')");
    RecordingSink sink = new RecordingSink();
    try (OpenConnection open = database.openWithQueryTimeout(TIMEOUT_SECS, store);
        Connection locker = database.connect()) {
      lock(engine, locker);
      CompletableFuture<Throwable> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  open.source(store.unit()).read(Optional.empty(), sink, new Cancellation());
                  return null;
                } catch (Exception e) {
                  return e;
                }
              });
      try {
        Throwable ended;
        try {
          ended = read.get(WAIT_SECS, TimeUnit.SECONDS);
        } catch (TimeoutException stillWaiting) {
          throw new AssertionError(
              "the read still waited on the lock " + WAIT_SECS + " s after it began", stillWaiting);
        }
        assertThat(ended).isInstanceOf(SourceException.class);
        assertThat(sink.events).isEmpty();
        return ended.getMessage();
      } finally {
        unlock(engine, locker);
        read.get(WAIT_SECS, TimeUnit.SECONDS);
      }
    }
  }

  private static void lock(Engine engine, Connection locker) throws Exception {
    try (Statement statement = locker.createStatement()) {
      if (engine == Engine.POSTGRES) {
        locker.setAutoCommit(false);
        statement.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
      } else {
        statement.execute("LOCK TABLES events WRITE");
      }
    }
  }

  private static void unlock(Engine engine, Connection locker) throws Exception {
    if (engine == Engine.POSTGRES) {
      locker.rollback();
    } else {
      try (Statement statement = locker.createStatement()) {
        statement.execute("UNLOCK TABLES");
      }
    }
  }
}
