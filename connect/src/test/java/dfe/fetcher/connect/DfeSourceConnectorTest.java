package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.WindowMark;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector's configuration: bound by the fetcher's binders, problems against properties. */
class DfeSourceConnectorTest {

  @TempDir Path directory;

  private String yaml() {
    return """
        instance_id: test
        sources:
          file:
            inv:
              topic: inv
              units:
                - {unit: a, dump: {paths: ["%1$s/a/*.ndjson"]}}
                - {unit: b, dump: {paths: ["%1$s/b/*.ndjson"]}}
                - {unit: c, enabled: false, dump: {paths: ["%1$s/c/*.ndjson"]}}
            logs:
              topic: logs
              units:
                - {unit: app, dump: {paths: ["%1$s/logs/*.ndjson"]}}
        """
        .formatted(directory);
  }

  private static List<String> errorsOf(Config config, String property) {
    return config.configValues().stream()
        .filter(value -> value.name().equals(property))
        .findFirst()
        .map(ConfigValue::errorMessages)
        .orElseThrow();
  }

  @Test
  void aValidConfigurationValidatesWithoutErrors() {
    Config config = new DfeSourceConnector().validate(Map.of(ConnectorSettings.CONFIG, yaml()));

    assertThat(config.configValues())
        .allSatisfy(value -> assertThat(value.errorMessages()).isEmpty());
  }

  @Test
  void eachProblemIsReportedAgainstThePropertyWithItsYamlLine() {
    String broken =
        """
        sources:
          file:
            inv:
              topic: inv
              units:
                - {unit: a, dump: {paths: [/tmp/x], decoder: sideways}}
        cursor:
          directory: /tmp/state
        output:
          type: file
          topic_suffix: _raw
        """;

    Config config = new DfeSourceConnector().validate(Map.of(ConnectorSettings.CONFIG, broken));

    assertThat(errorsOf(config, ConnectorSettings.CONFIG))
        .anySatisfy(error -> assertThat(error).startsWith("dfe.config:6:").contains("sideways"))
        .anySatisfy(
            error ->
                assertThat(error).startsWith("dfe.config:7:1: cursor: not used on Kafka Connect"))
        .anySatisfy(error -> assertThat(error).startsWith("dfe.config:10:3: output.type: not used"))
        .noneSatisfy(error -> assertThat(error).contains("topic_suffix"));
  }

  @Test
  void aFileOnTheWorkerIsReadAndItsProblemsNameIt() throws Exception {
    Path file = directory.resolve("fetcher.yaml");
    Files.writeString(file, "sources:\n  file:\n    inv: {topic: inv}\n");

    Config config =
        new DfeSourceConnector().validate(Map.of(ConnectorSettings.CONFIG_FILE, file.toString()));

    assertThat(errorsOf(config, ConnectorSettings.CONFIG_FILE))
        .isNotEmpty()
        .allSatisfy(error -> assertThat(error).startsWith(file + ":3:"));
  }

  @Test
  void exactlyOneOfTheTwoPropertiesMustBeSet() {
    Config neither = new DfeSourceConnector().validate(Map.of());
    Config both =
        new DfeSourceConnector()
            .validate(
                Map.of(ConnectorSettings.CONFIG, yaml(), ConnectorSettings.CONFIG_FILE, "/x"));

    assertThat(errorsOf(neither, ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .contains("exactly one");
    assertThat(errorsOf(both, ConnectorSettings.CONFIG_FILE))
        .singleElement()
        .asString()
        .contains("exactly one");
  }

  @Test
  void tasksShareTheEnabledUnitsEachUnitInOneTask() {
    DfeSourceConnector connector = new DfeSourceConnector();
    connector.start(Map.of(ConnectorSettings.CONFIG, yaml()));

    List<Map<String, String>> two = connector.taskConfigs(2);
    List<Map<String, String>> many = connector.taskConfigs(10);

    assertThat(two)
        .extracting(task -> task.get(ConnectorSettings.TASK_UNITS))
        .containsExactly("inv.a,logs.app", "inv.b");
    assertThat(two)
        .allSatisfy(task -> assertThat(task).containsEntry(ConnectorSettings.CONFIG, yaml()));
    assertThat(many)
        .extracting(task -> task.get(ConnectorSettings.TASK_UNITS))
        .containsExactly("inv.a", "inv.b", "logs.app");
  }

  @Test
  void offsetsAlteredThroughConnectMustNameAStoreAndHoldAMarkOrNothing() {
    DfeSourceConnector connector = new DfeSourceConnector();
    Map<String, Object> store = Map.of("store", "db.moves");
    String mark =
        new String(
            MarkCodec.encode(new WindowMark(Instant.EPOCH), Instant.EPOCH), StandardCharsets.UTF_8);
    Map<Map<String, ?>, Map<String, ?>> reset = new HashMap<>();
    reset.put(store, null);

    assertThat(connector.alterOffsets(Map.of(), reset)).isTrue();
    assertThat(connector.alterOffsets(Map.of(), Map.of(store, Map.of("mark", mark)))).isTrue();
    Assertions.assertThatThrownBy(
            () -> connector.alterOffsets(Map.of(), Map.of(store, Map.of("mark", "{\"x\":1}"))))
        .hasMessageContaining("store db.moves is not a mark this build reads");
    Assertions.assertThatThrownBy(
            () ->
                connector.alterOffsets(Map.of(), Map.of(Map.of("file", "x"), Map.of("mark", mark))))
        .hasMessageContaining("{\"store\": \"<connection>.<unit>\"}");
  }

  @Test
  void whatWouldLetTheWorkerDropARecordIsRefused() {
    Map<String, String> tolerant =
        Map.of(ConnectorSettings.CONFIG, yaml(), "errors.tolerance", "all");
    Map<String, String> transformed =
        Map.of(ConnectorSettings.CONFIG, yaml(), "transforms", "drop");

    assertThat(errorsOf(new DfeSourceConnector().validate(tolerant), ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .startsWith("errors.tolerance=all: not supported");
    assertThat(errorsOf(new DfeSourceConnector().validate(transformed), ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .startsWith("transforms: not supported");
    Assertions.assertThatThrownBy(() -> new DfeSourceConnector().start(tolerant))
        .hasMessageContaining("errors.tolerance=all");
  }

  @Test
  void aResumableDumpIsRefusedNamingItsConfigPath() {
    String resumable =
        """
        sources:
          db:
            crm:
              url: "jdbc:h2:mem:crm"
              topic: crm
              stores:
                - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", key: [id],
                   resume: by_key}
        """;

    assertThat(
            errorsOf(
                new DfeSourceConnector().validate(Map.of(ConnectorSettings.CONFIG, resumable)),
                ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .contains(
            "sources.db.crm.stores[0].resume: resume: by_key is not supported on Kafka"
                + " Connect");
  }

  @Test
  void exactlyOnceNeedsTheConnectorsOwnTransactionBoundaries() {
    Map<String, String> poll =
        Map.of(
            ConnectorSettings.CONFIG,
            yaml(),
            "exactly.once.support",
            "required",
            "transaction.boundary",
            "poll");
    Map<String, String> connector =
        Map.of(
            ConnectorSettings.CONFIG,
            yaml(),
            "exactly.once.support",
            "required",
            "transaction.boundary",
            "connector");

    assertThat(errorsOf(new DfeSourceConnector().validate(poll), ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .startsWith("transaction.boundary=poll: use transaction.boundary=connector");
    assertThat(errorsOf(new DfeSourceConnector().validate(connector), ConnectorSettings.CONFIG))
        .isEmpty();
    assertThat(new DfeSourceConnector().exactlyOnceSupport(poll))
        .isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
    assertThat(new DfeSourceConnector().exactlyOnceSupport(connector))
        .isEqualTo(ExactlyOnceSupport.SUPPORTED);
  }

  @Test
  void aProducerRequestSizeSmallerThanAFrameMayBeIsRefused() {
    String large = yaml() + "oversize: {max_record_bytes: 2000000}\n";
    Map<String, String> unset = Map.of(ConnectorSettings.CONFIG, large);
    Map<String, String> small =
        Map.of(ConnectorSettings.CONFIG, large, "producer.override.max.request.size", "2000000");
    Map<String, String> enough =
        Map.of(ConnectorSettings.CONFIG, large, "producer.override.max.request.size", "2065536");

    assertThat(errorsOf(new DfeSourceConnector().validate(unset), ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .startsWith(
            "producer.override.max.request.size is not set, so the producer's default 1048576 is"
                + " smaller than a frame may be: oversize.max_record_bytes 2000000 + 65536");
    assertThat(errorsOf(new DfeSourceConnector().validate(small), ConnectorSettings.CONFIG))
        .singleElement()
        .asString()
        .contains("set producer.override.max.request.size to at least 2065536");
    assertThat(errorsOf(new DfeSourceConnector().validate(enough), ConnectorSettings.CONFIG))
        .isEmpty();
  }

  @Test
  void theConfigurationIsAPasswordSoConnectNeverEchoesIt() {
    Config config = new DfeSourceConnector().validate(Map.of(ConnectorSettings.CONFIG, yaml()));

    assertThat(
            config.configValues().stream()
                .filter(value -> value.name().equals(ConnectorSettings.CONFIG))
                .findFirst()
                .orElseThrow()
                .value())
        .isInstanceOf(Password.class)
        .hasToString("[hidden]");
  }

  @Test
  void anOutputThatIsNoMappingIsReportedNotReplaced() {
    Config config =
        new DfeSourceConnector()
            .validate(Map.of(ConnectorSettings.CONFIG, yaml() + "output: kafka\n"));

    assertThat(errorsOf(config, ConnectorSettings.CONFIG))
        .anySatisfy(error -> assertThat(error).contains("output").contains("mapping"));
  }

  @Test
  void aTaskGivenAUnitItsConfigurationLacksFailsNamingIt() {
    DfeSourceTask task = new DfeSourceTask();
    task.initialize(
        new SourceTaskContext() {
          @Override
          public Map<String, String> configs() {
            return Map.of();
          }

          @Override
          public OffsetStorageReader offsetStorageReader() {
            return null;
          }

          @Override
          public PluginMetrics pluginMetrics() {
            return null;
          }
        });

    Assertions.assertThatThrownBy(
            () ->
                task.start(
                    Map.of(
                        ConnectorSettings.CONFIG,
                        yaml(),
                        ConnectorSettings.TASK_UNITS,
                        "inv.a,inv.gone")))
        .hasMessageContaining("inv.gone");
  }
}
