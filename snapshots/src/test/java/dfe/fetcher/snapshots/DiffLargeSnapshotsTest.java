package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snapshots diff} of two 1,000,000-row snapshots in a child JVM capped at {@code -Xmx256m}:
 * both snapshots together weigh far more than the heap, so only spilled runs make it.
 */
class DiffLargeSnapshotsTest {

  private static final int ROWS = 1_000_000;
  private static final int SHIFT = 1000;

  @TempDir Path directory;

  @Test
  void twoMillionRowSnapshotsDiffUnder256MegabytesOfHeap() throws Exception {
    Path from = directory.resolve("from.ndjson");
    Path to = directory.resolve("to.ndjson");
    String padding = "x".repeat(100);
    String fromId =
        SnapshotFrames.write(
            from,
            "inventory.hosts",
            1,
            ROWS,
            i -> "{\"id\":" + i + ",\"v\":0,\"p\":\"" + padding + "\"}");
    // Ids shifted by SHIFT: SHIFT removed, SHIFT added; every 1000th kept id changes.
    String toId =
        SnapshotFrames.write(
            to,
            "inventory.hosts",
            2,
            ROWS,
            i -> {
              long id = i + SHIFT;
              return "{\"id\":"
                  + id
                  + ",\"v\":"
                  + (id % 1000 == 7 ? 1 : 0)
                  + ",\"p\":\""
                  + padding
                  + "\"}";
            });
    assertThat(Files.size(from) + Files.size(to)).isGreaterThan(512L << 20);
    Path out = directory.resolve("changes.ndjson");
    Path err = directory.resolve("diff.err");

    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "dfe.fetcher.snapshots.SnapshotsMain",
                "snapshots",
                "diff",
                "--key",
                "/id",
                "--from",
                fromId,
                "--to",
                toId,
                "--spill-directory",
                directory.toString(),
                from.toString(),
                to.toString()));
    Process diff =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      assertThat(diff.waitFor(5, TimeUnit.MINUTES)).as("finished").isTrue();
    } finally {
      diff.destroyForcibly();
    }

    assertThat(diff.exitValue()).as(Files.readString(err)).isZero();
    long changedKept = (ROWS - SHIFT) / 1000;
    assertThat(Files.readString(err))
        .contains("added=" + SHIFT + " removed=" + SHIFT + " changed=" + changedKept);
    try (Stream<String> lines = Files.lines(out)) {
      assertThat(lines.count()).isEqualTo(2L * SHIFT + changedKept);
    }
    try (Stream<String> lines = Files.lines(out)) {
      assertThat(lines.filter(line -> line.startsWith("{\"op\":\"change\",\"key\":1007,")).count())
          .isEqualTo(1);
    }
  }
}
