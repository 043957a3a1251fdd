package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.OpenConnection;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Dump stores against the real ClickHouse server. */
@Timeout(120)
class ClickHouseDumpTest {

  private static final String DATABASE = "dfe_dump";

  @BeforeAll
  static void tables() throws Exception {
    ClickHouseFixture.ensureServer();
    ClickHouseFixture.freshDatabase(DATABASE);
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".empty (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
    ClickHouseFixture.exec(
        "CREATE TABLE "
            + DATABASE
            + ".hosts (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
    ClickHouseFixture.exec(
        "INSERT INTO "
            + DATABASE
            + ".hosts SELECT number, concat('host-', toString(number))"
            + " FROM numbers(1000)");
  }

  private static ClickHouseConnection connection(String extra, String store) {
    return ClickHouseFixture.connection(
        "wh",
        "engine: clickhouse\nurl: "
            + ClickHouseFixture.URL
            + "\ndatabase: "
            + DATABASE
            + "\n"
            + extra
            + "stores:\n  - "
            + store
            + "\n");
  }

  @Test
  void anEmptyTableLandsAsBeginAndEndWithNoRow() throws Exception {
    EventSink sink =
        ClickHouseFixture.read(
            connection(
                "",
                "{unit: empty, shape: dump, query: \"SELECT * FROM empty\", count_first: true}"),
            "empty",
            Optional.empty());
    assertThat(sink.events).containsExactly("begin", "end");
    assertThat(sink.records).isEmpty();
    assertThat(sink.total).isEqualTo(OptionalLong.of(0));
  }

  @Test
  void countFirstPutsTheCountInTheBeginAndEveryRowLandsInOrder() throws Exception {
    EventSink sink =
        ClickHouseFixture.read(
            connection(
                "",
                "{unit: hosts, shape: dump, query: \"SELECT * FROM hosts ORDER BY id\","
                    + " count_first: true}"),
            "hosts",
            Optional.empty());
    assertThat(sink.events).containsExactly("begin", "end");
    assertThat(sink.total).isEqualTo(OptionalLong.of(1000));
    assertThat(sink.records).hasSize(1000);
    assertThat(sink.records.get(0)).isEqualTo("{\"id\":0,\"name\":\"host-0\"}");
    assertThat(sink.records.get(999)).isEqualTo("{\"id\":999,\"name\":\"host-999\"}");
  }

  @Test
  void gzipAnswersAndHeaderCredentialsLandTheSameRows() throws Exception {
    EventSink plain =
        ClickHouseFixture.read(
            connection(
                "", "{unit: hosts, shape: dump, query: \"SELECT * FROM hosts ORDER BY id\"}"),
            "hosts",
            Optional.empty());
    EventSink gzip =
        ClickHouseFixture.read(
            connection(
                "compression: gzip\nuser: dfe\npassword: dfe-secret\n",
                "{unit: hosts, shape: dump, query: \"SELECT * FROM hosts ORDER BY id\"}"),
            "hosts",
            Optional.empty());
    assertThat(gzip.events).containsExactly("begin", "end");
    assertThat(gzip.records).hasSize(1000).isEqualTo(plain.records);
  }

  @Test
  void aWrongPasswordFailsTheTickWithoutShowingIt() {
    ClickHouseConnection connection =
        connection(
            "user: dfe\npassword: not-the-secret\n",
            "{unit: hosts, shape: dump, query: \"SELECT * FROM hosts\"}");
    assertThatThrownBy(() -> ClickHouseFixture.read(connection, "hosts", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.hosts")
        .hasMessageContaining("Code: 193.")
        .hasMessageNotContaining("not-the-secret");
  }

  @Test
  void aServerErrorNamesTheStoreAndCodeButNoLiteralOfTheQuery() {
    ClickHouseConnection missing =
        connection(
            "",
            "{unit: bad, shape: dump, query: \"SELECT * FROM nope WHERE name = 'secret-value'\"}");
    assertThatThrownBy(() -> ClickHouseFixture.read(missing, "bad", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith("wh.bad: the dump query failed")
        .hasMessageContaining("Code: 60. DB::Exception: Table dfe_dump.nope doesn't exist")
        .hasMessageNotContaining("secret-value");
    ClickHouseConnection syntax =
        connection(
            "", "{unit: bad, shape: dump, query: \"SELECT 'secret-value' AS a AND AND 424242\"}");
    assertThatThrownBy(() -> ClickHouseFixture.read(syntax, "bad", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("Code: 62. DB::Exception: Syntax error: failed at position")
        .hasMessageNotContaining("secret-value")
        .hasMessageNotContaining("424242");
    ClickHouseConnection parse =
        connection("", "{unit: bad, shape: dump, query: \"SELECT toDate('secret-value') AS d\"}");
    assertThatThrownBy(() -> ClickHouseFixture.read(parse, "bad", Optional.empty()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("Code: 6. DB::Exception: Cannot parse string")
        .hasMessageNotContaining("secret");
  }

  @Test
  void maxResultRowsReachedAfterTheFirstRowsAbortsThePart() {
    maxResultRowsAbort("");
  }

  @Test
  void anExceptionInsideAGzipAnswerAbortsThePartToo() {
    // ClickHouse writes the exception into the compressed stream: it must be found there.
    maxResultRowsAbort("compression: gzip\n");
  }

  private static void maxResultRowsAbort(String extra) {
    ClickHouseConnection connection =
        connection(
            extra,
            "{unit: many, shape: dump, query: \"SELECT number, toString(number) AS s FROM"
                + " numbers(300000)\", settings: {max_result_rows: 100000, max_block_size: 1000}}");
    EventSink sink = new EventSink(false);
    assertThatThrownBy(() -> read(connection, "many", sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.many: the dump query failed")
        .hasMessageContaining("Code: 396. DB::Exception: Limit for result exceeded");
    assertThat(sink.events).containsExactly("begin");
    assertThat(sink.rows.get()).isGreaterThan(0);
  }

  @Test
  void aQueryKilledMidDumpAbortsThePart() throws Exception {
    ClickHouseConnection connection =
        connection(
            "",
            "{unit: endless, shape: dump, query: \"SELECT number, hex(cityHash64(number)) AS pad FROM"
                + " system.numbers\", settings: {max_block_size: 1000}}");
    EventSink sink =
        new EventSink(false) {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            if (rows.get() == 20_000) {
              try {
                // From another connection, as an operator would; ASYNC, as the query cannot
                // notice the kill while it waits for this thread to read on.
                ClickHouseFixture.exec("KILL QUERY WHERE query_id LIKE 'dfe-wh.endless-%' ASYNC");
              } catch (java.io.IOException e) {
                throw new AssertionError(e);
              }
            }
          }
        };
    assertThatThrownBy(() -> read(connection, "endless", sink, new Cancellation()))
        .isInstanceOf(SourceException.class)
        .hasMessageContaining("wh.endless: the dump query failed")
        .hasMessageContaining("Code: 394. DB::Exception: Query was cancelled");
    assertThat(sink.events).containsExactly("begin");
    assertThat(sink.rows.get()).isGreaterThanOrEqualTo(20_000);
  }

  @Test
  void aSinkFailurePropagatesUnchangedAndTheAbandonedQueryIsKilled() throws Exception {
    ClickHouseConnection connection =
        connection(
            "",
            // 300,000 rows at once, then blocks that each take a while and print little: once
            // the sink failed the server computes for half a minute before it writes again (and
            // notices the client went away), so within the await below only a kill ends it.
            "{unit: abandoned, shape: dump, query: \"SELECT number AS n,"
                + " arraySum(range(if(number < 300000, 1, 90000))) AS s FROM"
                + " numbers(100000000)\", settings: {max_threads: 1, max_block_size: 1000}}");
    IllegalStateException transportDown = new IllegalStateException("the transport failed");
    EventSink sink =
        new EventSink(false) {
          @Override
          public void row(Row row) throws InterruptedException {
            super.row(row);
            if (rows.get() == 299_990) {
              throw transportDown;
            }
          }
        };
    assertThatThrownBy(() -> read(connection, "abandoned", sink, new Cancellation()))
        .isSameAs(transportDown);
    assertThat(sink.events).containsExactly("begin");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                ClickHouseFixture.exec(
                        "SELECT count() FROM system.processes WHERE query_id LIKE"
                            + " 'dfe-wh.abandoned-%'")
                    .trim()
                    .equals("0"));
  }

  private static void read(
      ClickHouseConnection connection, String unit, EventSink sink, Cancellation cancellation)
      throws Exception {
    try (OpenConnection open = ClickHouseFixture.open(connection)) {
      open.source(unit).read(Optional.empty(), sink, cancellation);
    }
  }
}
