package dfe.fetcher.snapshots;

import static dfe.fetcher.snapshots.SnapshotFrames.dump;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code snapshots diff}: the changes between two complete snapshots, in key order. */
class DiffCommandTest {

  private static final String STORE = "inventory.hosts";

  @TempDir Path directory;

  private CommandRun diff(
      SnapshotFrames from, SnapshotFrames to, List<String> lines, String... extra)
      throws Exception {
    Path file = SnapshotFrames.file(directory, "frames.ndjson", lines);
    List<String> args =
        new ArrayList<>(
            List.of(
                "snapshots",
                "diff",
                "--key",
                "/id",
                "--from",
                from.id(),
                "--to",
                to.id(),
                "--spill-directory",
                directory.toString()));
    args.addAll(List.of(extra));
    args.add(file.toString());
    return CommandRun.of(args.toArray(String[]::new));
  }

  @Test
  void addedRemovedAndChangedKeysArePrintedInKeyOrderFromShuffledRepeatedFrames() throws Exception {
    SnapshotFrames from =
        dump(
            STORE, 1, "{\"id\":\"a\",\"n\":1}", "{\"id\":\"b\",\"n\":1}", "{\"id\":\"c\",\"n\":1}");
    SnapshotFrames to =
        dump(
            STORE,
            2,
            "{\"id\":\"d\",\"n\":1}",
            "{\"n\":2,\"id\":\"c\"}",
            "{\"n\":1.0,\"id\":\"a\"}");

    CommandRun run =
        diff(
            from,
            to,
            SnapshotFrames.interleave(
                from.shuffledWithDuplicates(1), to.shuffledWithDuplicates(2)));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.outLines())
        .containsExactly(
            "{\"op\":\"remove\",\"key\":\"b\",\"before\":{\"id\":\"b\",\"n\":1},\"after\":null}",
            "{\"op\":\"change\",\"key\":\"c\",\"before\":{\"id\":\"c\",\"n\":1},\"after\":{\"n\":2,\"id\":\"c\"}}",
            "{\"op\":\"add\",\"key\":\"d\",\"before\":null,\"after\":{\"id\":\"d\",\"n\":1}}");
    assertThat(run.err()).contains("added=1 removed=1 changed=1 unchanged=1");
  }

  @Test
  void runsSpilledToDiskGiveTheSameChangesAsOneRunInMemory() throws Exception {
    SnapshotFrames from = dump(STORE, 1, 5000, i -> "{\"id\":" + i + ",\"v\":0}");
    SnapshotFrames to =
        dump(STORE, 2, 5000, i -> "{\"id\":" + (i + 100) + ",\"v\":" + (i % 50 == 0 ? 1 : 0) + "}");
    List<String> lines = SnapshotFrames.interleave(from.lines(), to.lines());

    CommandRun inMemory = diff(from, to, lines);
    CommandRun spilled = diff(from, to, lines, "--run-megabytes", "0");

    assertThat(inMemory.exitCode()).isZero();
    assertThat(spilled.exitCode()).isZero();
    assertThat(spilled.err()).doesNotContain("runs=0");
    assertThat(spilled.out()).isEqualTo(inMemory.out());
    assertThat(inMemory.outLines()).hasSize(100 + 100 + 98);
    try (var left = Files.list(directory)) {
      assertThat(left).allMatch(path -> path.getFileName().toString().equals("frames.ndjson"));
    }
  }

  @Test
  void aSnapshotThatIsNotCompleteIsNamedAndNothingIsPrinted() throws Exception {
    SnapshotFrames from = dump(STORE, 1, "{\"id\":\"a\"}", "{\"id\":\"b\"}");
    SnapshotFrames to = dump(STORE, 2, "{\"id\":\"a\"}");
    List<String> lines = new ArrayList<>(from.withoutRow(0));
    lines.addAll(to.lines());

    CommandRun run = diff(from, to, lines);

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .contains("snapshot " + from.id() + " of " + STORE + " is truncated, not complete");
  }

  @Test
  void aKeyAtTwoSeqsIsRefusedWithExitTwo() throws Exception {
    SnapshotFrames from = dump(STORE, 1, "{\"id\":\"a\"}");
    SnapshotFrames to = dump(STORE, 2, "{\"id\":\"a\",\"n\":1}", "{\"id\":\"a\",\"n\":2}");
    List<String> lines = new ArrayList<>(from.lines());
    lines.addAll(to.lines());

    CommandRun run = diff(from, to, lines);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("key \"a\" appears at seq 0 and seq 1 of the later snapshot");
  }

  @Test
  void aRowWithoutTheKeyIsRefusedNamingItsSeq() throws Exception {
    SnapshotFrames from = dump(STORE, 1, "{\"id\":\"a\"}");
    SnapshotFrames to = dump(STORE, 2, "{\"id\":\"a\"}", "{\"name\":\"no id\"}");
    List<String> lines = new ArrayList<>(from.lines());
    lines.addAll(to.lines());

    CommandRun run = diff(from, to, lines);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("snapshot " + to.id() + " seq 1: the record has no value at /id");
  }

  @Test
  void aSnapshotComparedWithItselfHasNoChanges() throws Exception {
    SnapshotFrames only = dump(STORE, 1, "{\"id\":\"a\"}", "{\"id\":\"b\"}");

    CommandRun run = diff(only, only, only.shuffledWithDuplicates(3));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("added=0 removed=0 changed=0 unchanged=2");
  }

  @Test
  void aKeyRepeatedAfterAChangedKeyIsRefusedBeforeAnythingIsPrinted() throws Exception {
    SnapshotFrames from = dump(STORE, 1, "{\"id\":\"a\",\"n\":1}");
    SnapshotFrames to =
        dump(
            STORE, 2, "{\"id\":\"a\",\"n\":2}", "{\"id\":\"z\",\"n\":1}", "{\"id\":\"z\",\"n\":2}");
    List<String> lines = new ArrayList<>(from.lines());
    lines.addAll(to.lines());

    CommandRun run = diff(from, to, lines);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("key \"z\" appears at seq 1 and seq 2 of the later snapshot");
  }
}
