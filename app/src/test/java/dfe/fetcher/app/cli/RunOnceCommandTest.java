package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dfe-fetcher run --once}: every unit one time, and an exit code that says how it went. */
class RunOnceCommandTest {

  private static final String CONFIG =
      FetcherWorkspace.HEADER
          + """
          sources:
            file:
              inventory:
                topic: inventory
                units:
                  - unit: hosts
                    row_key: /id
                    dump: {paths: [data/hosts/*.ndjson]}
                  - unit: devices
                    dump: {paths: [data/devices/*.json]}
              sites:
                topic: sites
                units:
                  - unit: sites
                    dump: {paths: [data/sites/*.csv]}
          """;

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private Path config;

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
    config = workspace.config(CONFIG);
    workspace.write(
        "data/devices/all.json", "[{\"id\":\"d1\",\"kind\":\"switch\"},{\"id\":\"d2\"}]");
    workspace.write("data/sites/sites.csv", "id,name\ns1,Berlin\ns2,Lyon\n");
  }

  @Test
  void everyUnitRunsOnceAndItExitsZeroWhenAllLandedComplete() {
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}", "{\"id\":2}"));
    workspace.write("data/hosts/b.ndjson", FetcherWorkspace.ndjson("{\"id\":3}"));

    CliRun run = CliRun.of("run", "--config", config.toString(), "--once");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.errLines()).containsExactly("ran 3 units, 0 failed");
    assertThat(workspace.completeSnapshotRows("inventory-hosts_land"))
        .containsExactly(List.of("{\"id\":1}", "{\"id\":2}"), List.of("{\"id\":3}"));
    assertThat(workspace.completeSnapshotRows("inventory-devices_land"))
        .containsExactly(List.of("{\"id\":\"d1\",\"kind\":\"switch\"}", "{\"id\":\"d2\"}"));
    assertThat(workspace.completeSnapshotRows("sites-sites_land"))
        .containsExactly(
            List.of("{\"id\":\"s1\",\"name\":\"Berlin\"}", "{\"id\":\"s2\",\"name\":\"Lyon\"}"));
    assertThat(workspace.state().resolve("test.inventory.hosts.json")).isRegularFile();
    assertThat(workspace.state().resolve("test.inventory.devices.json")).isRegularFile();
    assertThat(workspace.state().resolve("test.sites.sites.json")).isRegularFile();
  }

  @Test
  void theSummarySaysHowManyRowsTheFilterDroppedAndCouldNotJudge() {
    Path filtered =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  file:
                    inventory:
                      topic: inventory
                      filter: 'record.deleted != true'
                      units:
                        - unit: hosts
                          dump: {paths: [data/hosts/*.ndjson]}
                """);
    workspace.write(
        "data/hosts/a.ndjson",
        FetcherWorkspace.ndjson(
            "{\"id\":1,\"deleted\":true}", "{\"id\":2,\"deleted\":false}", "{\"id\":3}"));

    CliRun run = CliRun.of("run", "--config", filtered.toString(), "--once");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.errLines())
        .containsExactly(
            "ran 1 unit, 0 failed, 1 rows filtered out, 1 rows the filter could not judge (see"
                + " filter_errors in the log)");
    assertThat(workspace.completeSnapshotRows("inventory-hosts_land"))
        .as("a row without the field lands under the default filter_errors: keep")
        .containsExactly(List.of("{\"id\":2,\"deleted\":false}", "{\"id\":3}"));
  }

  @Test
  void aFailingUnitMakesItExitOneNamingTheUnitFileAndLineWhileTheOtherUnitsStillLand()
      throws Exception {
    workspace.write("data/hosts/a-good.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));
    Path bad =
        workspace.write(
            "data/hosts/b-bad.ndjson", FetcherWorkspace.ndjson("{\"id\":2}", "{\"id\":", "{}"));

    CliRun run = CliRun.of("run", "--config", config.toString(), "--once");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.errLines())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("unit inventory.hosts failed: " + bad + ":2:7: not valid JSON"))
        .contains("ran 3 units, 1 failed")
        .hasSize(2);
    assertThat(workspace.completeSnapshotRows("sites-sites_land")).hasSize(1);
    assertThat(workspace.completeSnapshotRows("inventory-devices_land")).hasSize(1);
    List<SnapshotReport> hosts = workspace.reports("inventory-hosts_land");
    assertThat(hosts)
        .extracting(SnapshotReport::status)
        .containsExactly(SnapshotStatus.COMPLETE, SnapshotStatus.OPEN);
    assertThat(workspace.reassembled("inventory-hosts_land").rows(hosts.get(0).snapshotId()))
        .extracting(Object::toString)
        .containsExactly("{\"id\":1}");
    assertThat(Files.readString(workspace.state().resolve("test.inventory.hosts.json")))
        .contains("a-good.ndjson")
        .doesNotContain("b-bad.ndjson");
  }

  @Test
  void unitRunsOnlyTheNamedUnitsAndLeavesTheOthersUntouched() {
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));

    CliRun run =
        CliRun.of(
            "run",
            "--config",
            config.toString(),
            "--once",
            "--unit",
            "inventory.hosts",
            "--unit",
            "sites.sites");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.errLines()).containsExactly("ran 2 units, 0 failed");
    assertThat(workspace.completeSnapshotRows("inventory-hosts_land"))
        .containsExactly(List.of("{\"id\":1}"));
    assertThat(workspace.completeSnapshotRows("sites-sites_land")).hasSize(1);
    assertThat(workspace.lines("inventory-devices_land")).isEmpty();
    assertThat(workspace.state().resolve("test.inventory.devices.json")).doesNotExist();
  }

  @Test
  void anUnknownUnitIsAUsageErrorNamingTheKnownOnesAndRunsNothing() {
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));

    CliRun run =
        CliRun.of("run", "--config", config.toString(), "--once", "--unit", "inventory.hostz");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "unknown unit 'inventory.hostz'; the configuration's units are: inventory.hosts,"
                + " inventory.devices, sites.sites");
    assertThat(workspace.landing()).doesNotExist();
  }

  @Test
  void unitWithoutOnceIsAUsageError() {
    CliRun run = CliRun.of("run", "--config", config.toString(), "--unit", "inventory.hosts");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--unit runs a unit once: add --once");
  }
}
