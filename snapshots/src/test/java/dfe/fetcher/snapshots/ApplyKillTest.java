package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snapshots apply} killed with SIGKILL in a child JVM while it stages or swaps: the table
 * holds the old snapshot or the new one, never a mix, and a rerun converges on the new one.
 */
class ApplyKillTest {

  private static final int OLD_ROWS = 50_000;
  private static final int NEW_ROWS = 300_000;

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.postgres();

  @TempDir Path directory;
  private PostgresSchema schema; // set by the fixture before each test
  private Path newDump;

  @BeforeEach
  void applyTheOldSnapshot() throws Exception {
    Path oldDump = directory.resolve("old.ndjson");
    SnapshotFrames.write(oldDump, STORE, 1, OLD_ROWS, i -> "{\"id\":" + i + ",\"v\":\"old\"}");
    assertThat(CommandRun.of(args(oldDump).toArray(String[]::new)).exitCode()).isZero();
    newDump = directory.resolve("new.ndjson");
    // Overlapping ids, so a half-swapped table would show rows of both.
    SnapshotFrames.write(
        newDump, STORE, 2, NEW_ROWS, i -> "{\"id\":" + (i + OLD_ROWS / 2) + ",\"v\":\"new\"}");
  }

  private List<String> args(Path file) {
    return fixture.apply("--columns", "/id=id:bigint", file.toString());
  }

  @Test
  void killedWhileStagingTheTableKeepsTheOldSnapshotAndARerunAppliesTheNew() throws Exception {
    Process apply = start(newDump);
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> stagedRows() > 0 || !apply.isAlive());
      assertThat(apply.isAlive()).as("still staging").isTrue();
    } finally {
      kill(apply);
    }

    assertThat(tableState()).isEqualTo(OLD_STATE);
    assertThat(schema.tables()).anyMatch(name -> name.startsWith("hosts__stage_"));

    rerunConverges();
  }

  @Test
  void killedWhileSwappingTheTableKeepsTheOldSnapshotAndARerunAppliesTheNew() throws Exception {
    Process apply = start(newDump);
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> swapping() || !apply.isAlive());
      assertThat(apply.isAlive()).as("still swapping").isTrue();
    } finally {
      kill(apply);
    }
    // The server rolls the transaction back once it notices its client is gone.
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> !swapping());

    assertThat(tableState()).isEqualTo(OLD_STATE);

    rerunConverges();
  }

  private void rerunConverges() throws Exception {
    CommandRun rerun = CommandRun.of(args(newDump).toArray(String[]::new));
    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(tableState()).isEqualTo(NEW_STATE);
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  private static final String OLD_STATE = OLD_ROWS + " rows, 0.." + (OLD_ROWS - 1) + ", old";
  private static final String NEW_STATE =
      NEW_ROWS + " rows, " + OLD_ROWS / 2 + ".." + (NEW_ROWS + OLD_ROWS / 2 - 1) + ", new";

  /** Count, id range and the set of versions of the table's rows. */
  private String tableState() throws Exception {
    return schema.scalar(
        "SELECT count(*) || ' rows, ' || min(id) || '..' || max(id) || ', '"
            + " || string_agg(DISTINCT record->>'v', ',') FROM ${schema}.hosts");
  }

  private long stagedRows() throws Exception {
    String stage = schema.scalar("SELECT stage_table FROM ${schema}.dfe_fetcher_apply_staging");
    if (stage == null) {
      return 0;
    }
    try {
      String count = schema.scalar("SELECT count(*) FROM ${schema}." + stage);
      return Long.parseLong(count);
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) {
        // Recorded in the bookkeeping, not created yet (or already swapped in): nothing staged
        // to see now; the wait polls again.
        return 0;
      }
      throw e;
    }
  }

  private boolean swapping() throws Exception {
    String active =
        schema.scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dfe-fetcher snapshots"
                + " apply' AND query LIKE 'INSERT INTO \"${schema}\".\"hosts\" (%'");
    return Long.parseLong(active) > 0;
  }

  private Process start(Path file) throws Exception {
    return ApplyFixture.start(args(file), directory.resolve("apply-" + System.nanoTime() + ".log"));
  }

  private static void kill(Process process) throws InterruptedException {
    process.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no rollback from the client
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }
}
