package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.snapshots.apply.PostgresSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snapshots apply} from a topic, killed with SIGKILL in a child JVM while it stages: the
 * table keeps the snapshot swapped in before, and a rerun of the same group resumes from the
 * committed offsets and ends with the new snapshot.
 */
class ApplyKilledFromKafkaTest {

  private static final int NEW_ROWS = 200_000;

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.withKafka();

  private PostgresSchema schema; // set by the fixture before each test
  @TempDir Path directory;

  private List<String> args(String topic) {
    return fixture.applyFromTopic(topic, "--group", fixture.group());
  }

  @Test
  void killedWhileStagingItResumesFromTheCommittedOffsetsAndConverges() throws Exception {
    String topic = "apply-killed-" + schema.name();
    fixture.kafka().createTopic(topic, 2, Map.of());
    SnapshotFrames old = SnapshotFrames.dump(STORE, 1, "{\"id\":\"old-1\"}", "{\"id\":\"old-2\"}");
    Path newDump = directory.resolve("new.ndjson");
    String newId =
        SnapshotFrames.write(newDump, STORE, 2, NEW_ROWS, i -> "{\"id\":\"new-" + i + "\"}");
    List<String> lines = new ArrayList<>(old.lines());
    lines.addAll(Files.readAllLines(newDump));
    fixture.produce(topic, 2, lines);

    Path log = directory.resolve("apply.log");
    Process apply = ApplyFixture.start(args(topic), log);
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> (holds(old.id()) && stagedRows(newId) > 0) || !apply.isAlive());
      assertThat(apply.isAlive()).as(Files.readString(log)).isTrue();
    } finally {
      apply.destroyForcibly();
      assertThat(apply.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(schema.rows("hosts")).containsOnlyKeys("old-1", "old-2");

    CommandRun rerun = CommandRun.of(args(topic).toArray(String[]::new));

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(rerun.out()).contains("applied snapshot=");
    assertThat(schema.scalar("SELECT count(*) || ' ' || min(id) FROM ${schema}.hosts"))
        .isEqualTo(NEW_ROWS + " new-0");
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }

  /** Whether the table holds {@code snapshotId} (the staging of the next may start before). */
  private boolean holds(String snapshotId) throws Exception {
    if (schema.scalar("SELECT to_regclass('${schema}.dfe_fetcher_apply')") == null) {
      return false;
    }
    return snapshotId.equals(schema.scalar("SELECT snapshot_id FROM ${schema}.dfe_fetcher_apply"));
  }

  /** Rows staged for {@code snapshotId}; 0 before its staging table exists. */
  private long stagedRows(String snapshotId) throws Exception {
    String stage = "hosts__stage_" + snapshotId.substring(snapshotId.length() - 12);
    if (schema.scalar("SELECT to_regclass('${schema}." + stage + "')") == null) {
      return 0;
    }
    return Long.parseLong(schema.scalar("SELECT count(*) FROM ${schema}." + stage));
  }
}
