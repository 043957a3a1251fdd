package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A query that would run for minutes ends promptly when the tick is cancelled. */
class CancellationTest {

  private TestDatabase database;

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aLongDumpQueryIsCancelledAndTheReadEndsWithInterruptedException(Engine engine)
      throws Exception {
    database = TestDatabase.create(engine);
    String sleep = engine == Engine.POSTGRES ? "SELECT pg_sleep(600)" : "SELECT SLEEP(600)";
    assertCancelledPromptly(TestDatabase.dump("slow", sleep), engine);
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aLongTailQueryIsCancelledAndTheReadEndsWithInterruptedException(Engine engine)
      throws Exception {
    database = TestDatabase.create(engine);
    String sleep = engine == Engine.POSTGRES ? "pg_sleep(600)" : "SLEEP(600)";
    DbStore tail =
        TestDatabase.tail("slow", "SELECT 1 AS id, " + sleep + " AS slept", List.of("id"), 10, 1);
    assertCancelledPromptly(tail, engine);
  }

  @Test
  void aDumpTheSinkRefusesMidwayCancelsItsQueryInsteadOfReadingTheRest() throws Exception {
    database = TestDatabase.create(Engine.MARIADB);
    // 100 million rows: closing the result set without a cancel reads them all (about 20 s here).
    DbStore huge = TestDatabase.dump("huge", "SELECT seq AS id FROM seq_1_to_100000000");
    RecordingSink refusing =
        new RecordingSink() {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            if (records().size() == 10) {
              throw new IllegalStateException("the output refused the batch");
            }
          }
        };
    try (OpenConnection open = database.open(huge)) {
      CompletableFuture<Throwable> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  open.source("huge").read(Optional.empty(), refusing, new Cancellation());
                  return null;
                } catch (Exception | Error e) {
                  return e;
                }
              });

      assertThat(read.get(5, TimeUnit.SECONDS))
          .as("the failure reaches the tick without the rest of the rows being read first")
          .isInstanceOf(IllegalStateException.class);
    }
  }

  private void assertCancelledPromptly(DbStore store, Engine engine) throws Exception {
    RecordingSink sink = new RecordingSink();
    Cancellation cancellation = new Cancellation();
    try (OpenConnection open = database.open(store)) {
      CompletableFuture<Throwable> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  open.source(store.unit()).read(Optional.empty(), sink, cancellation);
                  return null;
                } catch (Exception e) {
                  return e;
                }
              });
      await().atMost(Duration.ofSeconds(20)).until(() -> sleeping(engine));

      long started = System.nanoTime();
      cancellation.cancel("stopping");
      Throwable ended = read.get(5, TimeUnit.SECONDS);
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(ended).isInstanceOf(InterruptedException.class).hasMessageContaining("stopping");
      assertThat(tookMillis).isLessThan(5_000);
      assertThat(sink.events).noneMatch(RecordingSink.End.class::isInstance);
      assertThat(sink.records()).isEmpty();
    } catch (ExecutionException e) {
      throw new AssertionError("the read failed otherwise", e.getCause());
    }
  }

  /** Whether another session of the test database is running the sleep. */
  private boolean sleeping(Engine engine) throws Exception {
    String sql =
        engine == Engine.POSTGRES
            ? "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%pg_sleep%'"
            : "SELECT count(*) FROM information_schema.processlist WHERE db = DATABASE()"
                + " AND id <> CONNECTION_ID() AND info LIKE '%SLEEP(600)%'";
    try (Connection admin = database.connect();
        PreparedStatement statement = admin.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      return rows.getLong(1) > 0;
    }
  }
}
