package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfe-fetcher filter test}: a connection's filter on sample records, as a tick applies it.
 */
class FilterTestCommandTest {

  private static final String RECORDS =
      FetcherWorkspace.ndjson(
          "{\"id\":1,\"deleted\":true}", "", "{\"id\":2,\"deleted\":false}", "{\"id\":3}");

  @TempDir Path directory;
  private FetcherWorkspace workspace;

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
  }

  private Path config(String filter, String filterErrors) {
    return workspace.config(
        FetcherWorkspace.HEADER
            + """
            sources:
              file:
                inventory:
                  topic: inventory
                  filter: '%s'
                  filter_errors: %s
                  units:
                    - unit: hosts
                      dump: {paths: [data/hosts/*.ndjson]}
            """
                .formatted(filter, filterErrors));
  }

  @Test
  void aDumpFilterSeesTheRowFrameAndEachRecordGetsItsVerdict() {
    Path records = workspace.write("sample.ndjson", RECORDS);

    CliRun run =
        CliRun.of(
            "filter",
            "test",
            "--config",
            config("record.deleted != true", "keep").toString(),
            "--unit",
            "inventory.hosts",
            records.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo(records + ":1: dropped");
    assertThat(lines.get(1)).isEqualTo(records + ":3: kept");
    assertThat(lines.get(2))
        .startsWith(records + ":4: not judged, kept (filter_errors: keep): ")
        .contains("deleted");
    assertThat(lines.get(3))
        .isEqualTo(
            "3 records: 2 kept, 1 dropped, 1 not judged (kept under filter_errors: keep); filter:"
                + " record.deleted != true");
  }

  @Test
  void underFilterErrorsDropARecordTheFilterCannotJudgeIsDroppedAndTheSummarySaysSo() {
    CliRun run =
        CliRun.withInput(
            RECORDS,
            "filter",
            "test",
            "--config",
            config("record.deleted != true", "drop").toString(),
            "--unit",
            "inventory.hosts",
            "-");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines())
        .anySatisfy(
            line -> assertThat(line).startsWith("-:4: not judged, dropped (filter_errors: drop): "))
        .contains(
            "3 records: 1 kept, 2 dropped, 1 not judged (dropped under filter_errors: drop);"
                + " filter: record.deleted != true");
  }

  @Test
  void theFrameFieldsAreThereAsOnATickSeqCountsOnlyTheRowsKept() {
    CliRun run =
        CliRun.withInput(
            FetcherWorkspace.ndjson("{\"n\":1}", "{\"n\":2}", "{\"n\":3}"),
            "filter",
            "test",
            "--config",
            config("store == \"inventory.hosts\" && seq < 2", "keep").toString(),
            "--unit",
            "inventory.hosts",
            "-");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines()).containsSubsequence("-:1: kept", "-:2: kept", "-:3: dropped");
  }

  @Test
  void anOversizeRowOfADumpTakesASeqAsItsStubDoesOnATick() {
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                oversize: {max_record_bytes: 20}
                sources:
                  file:
                    inventory:
                      topic: inventory
                      filter: 'seq < 2'
                      units:
                        - unit: hosts
                          dump: {paths: [data/hosts/*.ndjson]}
                """);

    CliRun run =
        CliRun.withInput(
            FetcherWorkspace.ndjson(
                "{\"n\":1}", "{\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxx\"}", "{\"n\":3}"),
            "filter",
            "test",
            "--config",
            config.toString(),
            "--unit",
            "inventory.hosts",
            "-");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines())
        .containsSubsequence(
            "-:1: kept",
            "-:2: not judged: row exceeds max_record_bytes (34 > 20); lands as an oversize stub",
            "-:3: dropped");
  }

  @Test
  void aLineThatIsNotJsonIsReportedAndExitsTwoAfterJudgingTheRest() {
    CliRun run =
        CliRun.withInput(
            FetcherWorkspace.ndjson("{\"id\":", "{\"id\":2,\"deleted\":false}"),
            "filter",
            "test",
            "--config",
            config("record.deleted != true", "keep").toString(),
            "--unit",
            "inventory.hosts",
            "-");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("-:1: not a JSON value: ");
    assertThat(run.out()).contains("-:2: kept").contains("1 lines not JSON");
  }

  @Test
  void anUnknownUnitIsAUsageError() {
    CliRun run =
        CliRun.of(
            "filter",
            "test",
            "--config",
            config("record.deleted != true", "keep").toString(),
            "--unit",
            "inventory.nope",
            "-");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("unknown unit 'inventory.nope'").contains("inventory.hosts");
  }
}
