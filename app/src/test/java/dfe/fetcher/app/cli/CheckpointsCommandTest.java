package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dfe-fetcher checkpoints list|reset} over checkpoints the file output really wrote. */
class CheckpointsCommandTest {

  private static final String CONFIG =
      FetcherWorkspace.HEADER
          + """
          sources:
            file:
              inventory:
                topic: inventory
                units:
                  - unit: hosts
                    dump: {paths: [data/hosts/*.ndjson]}
                  - unit: devices
                    dump: {paths: [data/devices/*.ndjson]}
          """;

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private Path config;

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
    config = workspace.config(CONFIG);
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));
    CliRun landed =
        CliRun.of("run", "--config", config.toString(), "--once", "--unit", "inventory.hosts");
    assertThat(landed.exitCode()).as(landed.err()).isZero();
  }

  private Path hostsCheckpoint() {
    return workspace.state().resolve("test.inventory.hosts.json");
  }

  @Test
  void listShowsEachUnitsCheckpointKindMarkAndFileOrNone() {
    CliRun run = CliRun.of("checkpoints", "list", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("UNIT +KIND +FILE +CHECKPOINT");
    assertThat(lines.get(1))
        .startsWith("inventory.hosts")
        .contains(" file ")
        .containsPattern(
            Pattern.quote(hostsCheckpoint().toString())
                + " +"
                + Pattern.quote("last " + workspace.directory().resolve("data/hosts/a.ndjson")))
        .endsWith("1 file committed near it");
    assertThat(lines.get(2))
        .matches(
            "inventory\\.devices +none +"
                + Pattern.quote(workspace.state().resolve("test.inventory.devices.json").toString())
                + " +none");
  }

  @Test
  void resetRemovesTheUnitsCheckpointSaysWhatItRemovedAndTheNextRunLandsTheFileAgain() {
    CliRun reset =
        CliRun.of("checkpoints", "reset", "--config", config.toString(), "inventory.hosts");

    assertThat(reset.exitCode()).as(reset.err()).isZero();
    assertThat(reset.out())
        .startsWith("removed " + hostsCheckpoint() + " (file: last ")
        .contains("a.ndjson")
        .endsWith("): the next tick of inventory.hosts starts over\n");
    assertThat(hostsCheckpoint()).doesNotExist();

    CliRun again =
        CliRun.of("run", "--config", config.toString(), "--once", "--unit", "inventory.hosts");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(workspace.completeSnapshots("inventory-hosts_land")).isEqualTo(2);
  }

  @Test
  void resetOfAUnitWithoutACheckpointRemovesNothingAndSaysSo() throws Exception {
    CliRun reset =
        CliRun.of("checkpoints", "reset", "--config", config.toString(), "inventory.devices");

    assertThat(reset.exitCode()).as(reset.err()).isZero();
    assertThat(reset.out()).startsWith("unit inventory.devices has no checkpoint (");
    assertThat(Files.readString(hostsCheckpoint())).contains("a.ndjson");
  }

  @Test
  void resetRefusesAnUnknownUnitNamingTheKnownOnesAndRemovesNothing() {
    CliRun reset = CliRun.of("checkpoints", "reset", "--config", config.toString(), "inventory");

    assertThat(reset.exitCode()).isEqualTo(2);
    assertThat(reset.err())
        .contains(
            "unknown unit 'inventory'; the configuration's units are: inventory.hosts,"
                + " inventory.devices");
    assertThat(hostsCheckpoint()).isRegularFile();
  }
}
