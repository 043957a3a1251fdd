package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSummaryTest {

  @TempDir Path directory;

  @Test
  void theSummaryListsTheInstanceTheOutputAndEveryUnitWithItsTopicAndInterval() throws Exception {
    FetcherConfig config =
        new ConfigFixture(directory)
            .load(
                """
                instance_id: edge-7
                metrics: {address: "127.0.0.1:0"}
                sources:
                  file:
                    inventory:
                      topic: inventory
                      interval_secs: 60
                      filter: record.alive == true
                      units:
                        - unit: hosts
                          row_key: /id
                          dump: {paths: [data/*.ndjson, data/*.ndjson.gz]}
                        - unit: devices
                          enabled: false
                          dump: {paths: [data/devices.json], decoder: json_array}
                    sites:
                      topic: sites
                      enabled: false
                      units: [{unit: sites, dump: {paths: [sites.csv], decoder: csv}}]
                """);

    String summary = ConfigSummary.render(config).replace(directory + "/", "");

    assertThat(summary.lines())
        .containsExactly(
            "config: config.yaml",
            "instance: edge-7",
            "scheduler: every 300s unless a connection says otherwise, at most 4 fetches at once",
            "output: file, into landing, topic suffix '_land'",
            "file rotation: at 268435456 bytes, the newest 8 rotated files per topic kept",
            "batches: up to 500 rows or 1048576 bytes, flushed after 1000 ms",
            "dlq: enabled, topic dfe_fetcher_dlq",
            "oversize: records over 921600 bytes become stubs; the DLQ keeps their first 65536"
                + " bytes",
            "cursors: state/file-output",
            "metrics: 127.0.0.1:0 (any free port)",
            "connections: 2",
            "  file inventory: every 60s, filter record.alive == true",
            "    unit hosts: dump to topic inventory-hosts_land, store inventory.hosts, row_key /id",
            "      decoder auto",
            "      path data/*.ndjson",
            "      path data/*.ndjson.gz",
            "    unit devices (disabled): dump to topic inventory-devices_land, store"
                + " inventory.devices",
            "      decoder json_array",
            "      path data/devices.json",
            "  file sites (disabled): every 300s (scheduler default), no filter",
            "    unit sites: dump to topic sites-sites_land, store sites.sites",
            "      decoder csv",
            "      path sites.csv");
  }

  @Test
  void theFileOutputsRotationIsSummarisedInWords() throws Exception {
    ConfigFixture fixture = new ConfigFixture(directory);

    assertThat(
            ConfigSummary.render(
                fixture.load(
                    "output: {file: {rotate_bytes: 1000, rotate_secs: 3600, retain_files: 0,"
                        + " retain_secs: 86400}}")))
        .contains(
            "\nfile rotation: at 1000 bytes or after 3600s, rotated files deleted 86400s after"
                + " rotation\n");
    assertThat(ConfigSummary.render(fixture.load("output: {file: {retain_files: 0}}")))
        .contains("\nfile rotation: at 268435456 bytes, every rotated file kept\n");
    assertThat(ConfigSummary.render(fixture.load("output: {file: {rotate_bytes: 0}}")))
        .contains("\nfile rotation: none, one growing file per topic\n");
  }

  @Test
  void aKafkaOutputIsSummarisedWithItsBrokers() throws Exception {
    FetcherConfig config =
        new ConfigFixture(directory)
            .load("output: {type: kafka, topic_suffix: '', kafka: {bootstrap_servers: 'k:9092'}}");

    assertThat(ConfigSummary.render(config).lines())
        .contains("output: kafka, to k:9092, topic suffix ''")
        .noneMatch(line -> line.startsWith("kafka properties"));
  }
}
