package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump landed by a file output that rotates: consumers read every file of the topic in name
 * order, and the snapshot that spans the rotations is complete read that way.
 */
class RotatedLandingTest {

  private static final String CONFIG =
      """
      instance_id: test
      output:
        file: {directory: landing, rotate_bytes: 2000, retain_files: 0}
        batch: {max_rows: 5, linger_ms: 0}
      cursor: {directory: state}
      metrics: {address: "127.0.0.1:0"}
      sources:
        file:
          inventory:
            topic: inventory
            units:
              - unit: hosts
                row_key: /id
                dump: {paths: [data/*.ndjson]}
      """;

  @TempDir Path directory;

  private List<String> topicFilesInNameOrder(Path landing) throws IOException {
    try (Stream<Path> files = Files.list(landing)) {
      return files
          .map(Path::toString)
          .filter(name -> name.contains("inventory-hosts_land"))
          .sorted()
          .toList();
    }
  }

  @Test
  void aSnapshotSplitAcrossRotationsVerifiesCompleteFromItsFilesInNameOrder() throws IOException {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config = workspace.config(CONFIG);
    String[] rows =
        IntStream.range(0, 40)
            .mapToObj(i -> "{\"id\":" + i + ",\"name\":\"host-" + i + "\"}")
            .toArray(String[]::new);
    workspace.write("data/hosts.ndjson", FetcherWorkspace.ndjson(rows));

    CliRun landed = CliRun.of("run", "--config", config.toString(), "--once");
    assertThat(landed.exitCode()).as(landed.err()).isZero();

    List<String> files = topicFilesInNameOrder(workspace.landing());
    assertThat(files.size()).as("rotated files and the live one: %s", files).isGreaterThan(2);
    String live = workspace.landing().resolve("inventory-hosts_land.ndjson").toString();
    assertThat(files.get(files.size() - 1)).as("the live file sorts last").isEqualTo(live);
    assertThat(files.subList(0, files.size() - 1))
        .allSatisfy(
            name ->
                assertThat(Path.of(name).getFileName().toString())
                    .matches("inventory-hosts_land\\+\\d{8}T\\d{6}Z-\\d{6}\\.ndjson"));

    List<String> args = new ArrayList<>(List.of("snapshots", "verify"));
    args.addAll(files);
    CliRun verified = CliRun.of(args.toArray(String[]::new));
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out())
        .contains("1 snapshot: 1 complete, 0 truncated, 0 open, 0 conflict; 0 lines not a frame");

    CliRun liveOnly = CliRun.of("snapshots", "verify", live);
    assertThat(liveOnly.out())
        .as("the live file alone holds the end but not the first rows")
        .contains("1 snapshot: 0 complete, 1 truncated, 0 open, 0 conflict; 0 lines not a frame");
    assertThat(liveOnly.exitCode()).isNotZero();
  }

  @Test
  void aSecondRunRotatesOnAfterTheFilesTheFirstLeftAndBothSnapshotsVerify() throws IOException {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config = workspace.config(CONFIG);
    workspace.write("data/a.ndjson", FetcherWorkspace.ndjson(rows(0, 30)));
    CliRun first = CliRun.of("run", "--config", config.toString(), "--once");
    assertThat(first.exitCode()).as(first.err()).isZero();
    List<String> afterFirst = topicFilesInNameOrder(workspace.landing());

    CliRun idle = CliRun.of("run", "--config", config.toString(), "--once");
    assertThat(idle.exitCode()).as(idle.err()).isZero();
    assertThat(topicFilesInNameOrder(workspace.landing()))
        .as("the checkpoint covers what landed: nothing lands twice")
        .isEqualTo(afterFirst);

    workspace.write("data/b.ndjson", FetcherWorkspace.ndjson(rows(30, 60)));
    CliRun second = CliRun.of("run", "--config", config.toString(), "--once");
    assertThat(second.exitCode()).as(second.err()).isZero();

    List<String> files = topicFilesInNameOrder(workspace.landing());
    assertThat(files)
        .as("the first run's rotated files are still there, in front")
        .startsWith(afterFirst.subList(0, afterFirst.size() - 1).toArray(String[]::new))
        .hasSizeGreaterThan(afterFirst.size());
    List<String> args = new ArrayList<>(List.of("snapshots", "verify"));
    args.addAll(files);
    CliRun verified = CliRun.of(args.toArray(String[]::new));
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out())
        .contains("2 snapshots: 2 complete, 0 truncated, 0 open, 0 conflict; 0 lines not a frame");
  }

  private static String[] rows(int from, int to) {
    return IntStream.range(from, to)
        .mapToObj(i -> "{\"id\":" + i + ",\"name\":\"host-" + i + "\"}")
        .toArray(String[]::new);
  }
}
