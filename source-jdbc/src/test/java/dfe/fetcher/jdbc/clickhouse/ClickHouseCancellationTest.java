package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.source.OpenConnection;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stop (SIGTERM, a reload) cancels the tick's {@link Cancellation}: the query is killed on the
 * server and the read ends with an interruption at once, with no {@code end}. The slow query is one
 * of our own: 18.16 caps {@code sleep} at 3 s a block, so one row a block sleeping a second each
 * runs for as long as the numbers last, answering nothing (ClickHouse buffers the answer's first
 * megabyte), and costs the shared machine no CPU.
 */
@Timeout(120)
class ClickHouseCancellationTest {

  private static final String SLOW =
      "{unit: slow, shape: %s, query: \"SELECT number AS id, sleepEachRow(1) AS z FROM"
          + " numbers(100000)\", %s settings: {max_block_size: 1}}";

  @BeforeAll
  static void server() throws Exception {
    ClickHouseFixture.ensureServer();
  }

  @Test
  void aStopEndsASlowDumpQueryAtOnceAndKillsItOnTheServer() throws Exception {
    stopEndsTheSlowQuery("dump", "");
  }

  @Test
  void aStopEndsASlowTailPageAtOnceAndKillsItOnTheServer() throws Exception {
    stopEndsTheSlowQuery("tail", "key: [id],");
  }

  private static void stopEndsTheSlowQuery(String shape, String key) throws Exception {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: "
                + ClickHouseFixture.URL
                + "\nstores:\n  - "
                + String.format(SLOW, shape, key)
                + "\n");
    Cancellation cancellation = new Cancellation();
    EventSink sink = new EventSink();
    CompletableFuture<Throwable> outcome = readInBackground(connection, sink, cancellation);
    await().atMost(Duration.ofSeconds(30)).until(() -> running("dfe-wh.slow-%") > 0);
    long cancelledAt = System.nanoTime();
    cancellation.cancel("stopping");
    Throwable ended = outcome.get(10, TimeUnit.SECONDS);
    assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(Duration.ofSeconds(5));
    assertThat(ended).isInstanceOf(InterruptedException.class);
    assertThat(sink.events).doesNotContain("end");
    await().atMost(Duration.ofSeconds(10)).until(() -> running("dfe-wh.slow-%") == 0);
  }

  @Test
  void aStopWhileRowsFlowClosesTheStreamAndNeverEndsThePart() throws Exception {
    ClickHouseConnection connection =
        ClickHouseFixture.connection(
            "wh",
            "engine: clickhouse\nurl: "
                + ClickHouseFixture.URL
                + "\nstores:\n  - {unit: flowing, shape: dump, query: \"SELECT number FROM"
                + " system.numbers\"}\n");
    Cancellation cancellation = new Cancellation();
    EventSink sink =
        new EventSink(false) {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            if (rows.get() == 50_000) {
              cancellation.cancel("stopping");
            }
          }
        };
    Throwable ended = readInBackground(connection, sink, cancellation).get(20, TimeUnit.SECONDS);
    assertThat(ended).isInstanceOf(InterruptedException.class);
    assertThat(sink.events).containsExactly("begin");
    await().atMost(Duration.ofSeconds(10)).until(() -> running("dfe-wh.flowing-%") == 0);
  }

  private static CompletableFuture<Throwable> readInBackground(
      ClickHouseConnection connection, EventSink sink, Cancellation cancellation) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (OpenConnection open = ClickHouseFixture.open(connection)) {
            open.source(connection.stores().get(0).unit())
                .read(Optional.empty(), sink, cancellation);
            return null;
          } catch (Throwable e) {
            return e;
          }
        });
  }

  private static int running(String queryIdPattern) throws Exception {
    return Integer.parseInt(
        ClickHouseFixture.exec(
                "SELECT count() FROM system.processes WHERE query_id LIKE '" + queryIdPattern + "'")
            .trim());
  }
}
