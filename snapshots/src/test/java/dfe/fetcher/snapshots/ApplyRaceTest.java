package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.ApplyFixture.STORE;
import static dfe.fetcher.snapshots.ApplyFixture.hosts;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.snapshots.apply.ApplyMetrics;
import dfe.fetcher.snapshots.apply.ChangePublisher;
import dfe.fetcher.snapshots.apply.PostgresSchema;
import dfe.fetcher.snapshots.apply.SnapshotApplier;
import dfe.fetcher.snapshots.apply.TableColumns;
import dfe.fetcher.snapshots.apply.TargetTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two applies on one table: the one that loses the race finds its staging dropped by the winner's
 * swap, and takes in what the table holds instead of failing or keeping older snapshots staged.
 */
class ApplyRaceTest {

  @RegisterExtension static final ApplyFixture fixture = ApplyFixture.postgres();

  @TempDir Path directory;
  private PostgresSchema schema; // set by the fixture before each test

  @Test
  void anApplyThatFindsANewerSnapshotSwappedInDropsWhatItStagedOlderThanThat() throws Exception {
    SnapshotFrames open = hosts(2, "a");
    SnapshotFrames complete = hosts(1, "b");
    SnapshotFrames newest = hosts(3, "c");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    try (Connection connection = PostgresSchema.connect();
        TargetTable target =
            TargetTable.open(
                connection, schema.table("hosts"), TableColumns.of(List.of("/id"), List.of()));
        ApplyMetrics metrics = new ApplyMetrics(schema.table("hosts"))) {
      SnapshotApplier applier =
          new SnapshotApplier(
              target,
              Optional.empty(),
              ChangePublisher.NONE,
              new PrintStream(progress, true, StandardCharsets.UTF_8),
              metrics);
      List<String> lines = new ArrayList<>(open.withoutEnd());
      lines.addAll(complete.lines());
      FrameParser parser = new FrameParser();
      for (String line : lines) {
        applier.accept(parser.parse(line.getBytes(StandardCharsets.UTF_8)));
      }
      // Meanwhile another apply swaps a newer snapshot into the table.
      Path newer = SnapshotFrames.file(directory, "newer.ndjson", newest.lines());
      List<String> other = fixture.apply(newer.toString());
      assertThat(CommandRun.of(other.toArray(String[]::new)).exitCode()).isZero();

      applier.settle();
      applier.reportWaiting();
    }

    assertThat(progress.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "superseded snapshot="
                + complete.id()
                + " store="
                + STORE
                + " status=complete by="
                + newest.id(),
            "superseded snapshot="
                + open.id()
                + " store="
                + STORE
                + " status=open by="
                + newest.id());
    assertThat(schema.rows("hosts")).containsOnly(Map.entry("c", "{\"id\": \"c\", \"seen\": 3}"));
    assertThat(schema.tables()).noneMatch(name -> name.contains("__stage_"));
  }
}
