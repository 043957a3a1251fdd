package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import dfe.fetcher.snapshots.progress.Reading;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code run --once}'s progress line counts, read from the service's own counters. */
class ProgressOfRunTest {

  private final FetcherMetrics metrics = new FetcherMetrics();

  private Reading reading() {
    return LandedRows.reading(
        metrics.registry(), metrics.announcedRows(), metrics.inputAhead(), metrics.inputRead());
  }

  @TempDir Path directory;

  @Test
  void progressAlwaysDrawsTheLineOfRunOnceOnAnyStderrAndEndsItBeforeTheSummary() {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  file:
                    inventory:
                      topic: inventory
                      units:
                        - unit: hosts
                          dump: {paths: [data/hosts/*.ndjson]}
                """);
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}", "{\"id\":2}"));

    CliRun run = CliRun.of("run", "--config", config.toString(), "--once", "--progress=always");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err())
        .containsPattern(
            "\rrun  100%  2 rows  18 B/18 B  [0-9,.]+ rows/s  [0-9.]+ [KMG]?i?B/s  ETA 0:00"
                + "\\e\\[K\r\nran 1 unit, 0 failed");
  }

  @Test
  void withoutTheOptionAnInProcessRunDrawsNothing() {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  file:
                    inventory:
                      topic: inventory
                      units:
                        - unit: hosts
                          dump: {paths: [data/hosts/*.ndjson]}
                """);
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));

    CliRun run = CliRun.of("run", "--config", config.toString(), "--once");

    assertThat(run.errLines()).containsExactly("ran 1 unit, 0 failed");
  }

  @Test
  void aProgressModeThatIsNoneIsAUsageError() {
    CliRun run = CliRun.of("snapshots", "verify", "--progress", "sometimes", "-");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("--progress sometimes: not a progress mode; use auto, always or never");
  }

  @Test
  void aDumpCountsItsRowFramesAndATailTheRecordsItLanded() {
    metrics.rowFrames("inventory.hosts", 300);
    // A dump's begin and end frames land too: they are not rows.
    metrics.landed("inventory.hosts", "inventory-hosts_land", 302);
    metrics.landed("app.log", "app-log_land", 40);

    assertThat(reading()).isEqualTo(Reading.ofRows(340, OptionalLong.empty()));
  }

  @Test
  void aCountTheDumpAnnouncedIsTheTotalAndOtherUnitsCountAsFarAsTheyGot() {
    metrics.partBegun("crm.accounts", OptionalLong.of(1000));
    metrics.rowFrames("crm.accounts", 250);
    metrics.partBegun("inventory.hosts", OptionalLong.empty());
    metrics.rowFrames("inventory.hosts", 50);

    assertThat(reading()).isEqualTo(Reading.ofRows(300, OptionalLong.of(1050)));
  }

  @Test
  void aDumpThatAnnouncedACountBeforeItsFirstRowCountsItsWholeCount() {
    metrics.partBegun("crm.accounts", OptionalLong.of(400));
    metrics.partBegun("crm.contacts", OptionalLong.of(100));
    metrics.rowFrames("crm.contacts", 100);

    assertThat(reading()).isEqualTo(Reading.ofRows(100, OptionalLong.of(500)));
  }

  @Test
  void aFileDumpsAnnouncedInputIsTheByteTotalAndWhatItReadIsDone() {
    metrics.inputAhead("inventory.hosts", 1000);
    metrics.inputRead("inventory.hosts", 400);
    metrics.rowFrames("inventory.hosts", 20);

    assertThat(reading())
        .isEqualTo(
            new Reading(20, OptionalLong.of(400), OptionalLong.empty(), OptionalLong.of(1000)));
    assertThat(reading().share().orElseThrow().fraction()).isEqualTo(0.4);
  }
}
