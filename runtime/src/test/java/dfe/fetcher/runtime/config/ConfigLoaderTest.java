package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.file.FileConnection;
import dfe.fetcher.file.FileUnit;
import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.rest.profile.ShippedProfiles;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.runtime.transport.FileRotation;
import dfe.fetcher.source.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {

  @TempDir Path directory;

  private ConfigFixture fixture;

  @BeforeEach
  void fixture() {
    fixture = new ConfigFixture(directory);
  }

  private static final String ONE_CONNECTION =
      """
      sources:
        file:
          inventory:
            topic: inventory
            units:
              - unit: hosts
                dump: {paths: [data/*.ndjson]}
      """;

  @Test
  void anEmptyFileLoadsWithEveryDefault() throws Exception {
    FetcherConfig config = fixture.load("");

    assertThat(config.instanceId()).isEqualTo("default");
    assertThat(config.scheduler()).isEqualTo(new SchedulerConfig(300, 4, 30));
    assertThat(config.output().type()).isEqualTo(OutputType.FILE);
    assertThat(config.output().topicSuffix()).isEqualTo("_land");
    assertThat(config.output().fileDirectory()).isEqualTo(directory.resolve("landing"));
    assertThat(config.output().fileRotation())
        .isEqualTo(new FileRotation(268_435_456, Duration.ZERO, 8, Duration.ZERO));
    assertThat(config.output().kafka().bootstrapServers()).isEqualTo("127.0.0.1:9092");
    assertThat(config.output().kafka().properties()).isEmpty();
    assertThat(config.batch()).isEqualTo(new BatchConfig(500, 1_048_576, 1_000));
    assertThat(config.dlq()).isEqualTo(new DlqConfig(true, "dfe_fetcher_dlq"));
    assertThat(config.oversize()).isEqualTo(new OversizePolicy(921_600, 65_536));
    assertThat(config.cursor().directory()).isEqualTo(directory.resolve("state"));
    assertThat(config.metrics()).isEqualTo(new MetricsConfig("0.0.0.0", 9090));
    assertThat(config.connections()).isEmpty();
    assertThat(config.configFile()).isEqualTo(directory.resolve("config.yaml"));
  }

  @Test
  void aConnectionThatSaysLittleTakesTheDefaultsForTheRest() throws Exception {
    FetcherConfig config = fixture.load(ONE_CONNECTION);

    ConnectionConfig connection = config.connections().get(0);
    assertThat(connection)
        .isEqualTo(
            new ConnectionConfig(
                "file",
                "inventory",
                "inventory",
                OptionalInt.empty(),
                true,
                Optional.empty(),
                FilterErrors.KEEP,
                new FileConnection(
                    "inventory",
                    List.of(
                        new FileUnit(
                            "hosts",
                            true,
                            Optional.empty(),
                            new FileDumpSpec(
                                List.of(directory.resolve("data/*.ndjson").toString()),
                                directory,
                                Decoder.AUTO))))));
    assertThat(config.intervalOf(connection)).isEqualTo(Duration.ofSeconds(300));
  }

  @Test
  void everySettingWrittenOutIsRead() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            instance_id: edge-7
            scheduler: {default_interval_secs: 30, max_concurrent_fetches: 2, jitter_percent: 10}
            output:
              type: kafka
              topic_suffix: .raw
              file:
                directory: /var/lib/dfe/landing
                rotate_bytes: 1048576
                rotate_secs: 3600
                retain_files: 0
                retain_secs: 604800
              kafka:
                bootstrap_servers: "k1:9092, k2:9093"
                properties: {linger.ms: 5, enable.idempotence: true, acks: all}
              batch: {max_rows: 10, max_bytes: 2048, linger_ms: 0}
            dlq: {enabled: false, topic: dead.letters}
            oversize: {max_record_bytes: 1000, max_dlq_bytes: 0}
            cursor: {directory: /var/lib/dfe/state}
            metrics: {address: "[::1]:9100"}
            sources:
              file:
                inventory:
                  topic: inventory
                  interval_secs: 15
                  enabled: false
                  filter: record.alive == true
                  units:
                    - unit: hosts
                      enabled: false
                      row_key: /id
                      dump: {paths: [/data/a/*.csv, /data/b/**/*.csv], decoder: csv}
            """);

    assertThat(config.instanceId()).isEqualTo("edge-7");
    assertThat(config.scheduler()).isEqualTo(new SchedulerConfig(30, 2, 30, 10));
    assertThat(config.output().type()).isEqualTo(OutputType.KAFKA);
    assertThat(config.output().topicSuffix()).isEqualTo(".raw");
    assertThat(config.output().fileDirectory()).isEqualTo(Path.of("/var/lib/dfe/landing"));
    assertThat(config.output().fileRotation())
        .isEqualTo(new FileRotation(1_048_576, Duration.ofHours(1), 0, Duration.ofDays(7)));
    assertThat(config.output().kafka().bootstrapServers()).isEqualTo("k1:9092, k2:9093");
    assertThat(config.output().kafka().properties())
        .containsOnlyKeys("linger.ms", "enable.idempotence", "acks");
    assertThat(config.output().kafka().properties().get("linger.ms").reveal()).isEqualTo("5");
    assertThat(config.output().kafka().properties().get("enable.idempotence").reveal())
        .isEqualTo("true");
    assertThat(config.batch()).isEqualTo(new BatchConfig(10, 2048, 0));
    assertThat(config.dlq()).isEqualTo(new DlqConfig(false, "dead.letters"));
    assertThat(config.oversize()).isEqualTo(new OversizePolicy(1000, 0));
    assertThat(config.cursor().directory()).isEqualTo(Path.of("/var/lib/dfe/state"));
    assertThat(config.metrics()).isEqualTo(new MetricsConfig("::1", 9100));
    assertThat(config.connections())
        .containsExactly(
            new ConnectionConfig(
                "file",
                "inventory",
                "inventory",
                OptionalInt.of(15),
                false,
                Optional.of("record.alive == true"),
                FilterErrors.KEEP,
                new FileConnection(
                    "inventory",
                    List.of(
                        new FileUnit(
                            "hosts",
                            false,
                            Optional.of("/id"),
                            new FileDumpSpec(
                                List.of("/data/a/*.csv", "/data/b/**/*.csv"),
                                directory,
                                Decoder.CSV))))));
    assertThat(config.intervalOf(config.connections().get(0))).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void relativePathsResolveAgainstTheConfigFilesDirectory() throws Exception {
    Path file =
        fixture.write(
            "etc/dfe.yaml",
            """
            output: {file: {directory: ../landing}}
            cursor: {directory: state}
            sources:
              file:
                inventory:
                  topic: inventory
                  units:
                    - unit: hosts
                      dump: {paths: [./data/*.ndjson, /srv/hosts/*.ndjson]}
            """);

    FetcherConfig config = ConfigLoader.load(file, Map.of(), ConfigFixture.FAKE_FILTERS);

    assertThat(config.output().fileDirectory()).isEqualTo(directory.resolve("landing"));
    assertThat(config.cursor().directory()).isEqualTo(directory.resolve("etc/state"));
    assertThat(
            ((FileConnection) config.connections().get(0).source())
                .fileUnits()
                .get(0)
                .dump()
                .orElseThrow()
                .paths())
        .containsExactly(directory.resolve("etc/data/*.ndjson").toString(), "/srv/hosts/*.ndjson");
  }

  @Test
  void aDumpUnitLandsOnTopicDashUnitSuffixAndAnIncrementalOneOnTopicSuffix() throws Exception {
    FetcherConfig config = fixture.load(ONE_CONNECTION);
    ConnectionConfig connection = config.connections().get(0);

    assertThat(config.topicOf(connection, connection.source().units().get(0)))
        .isEqualTo("inventory-hosts_land");
    assertThat(config.output().topicOf("inventory", "events", Shape.TAIL))
        .isEqualTo("inventory_land");
    assertThat(config.output().sourceOf("inventory", "hosts", Shape.DUMP))
        .isEqualTo("inventory-hosts");
  }

  @Test
  void anEmptyTopicSuffixLeavesTopicsAsTheyAre() throws Exception {
    FetcherConfig config = fixture.load("output: {topic_suffix: ''}\n" + ONE_CONNECTION);
    ConnectionConfig connection = config.connections().get(0);

    assertThat(config.topicOf(connection, connection.source().units().get(0)))
        .isEqualTo("inventory-hosts");
  }

  @Test
  void aFileUnitIsADumpStoreNamedConnectionDotUnit() throws Exception {
    ConnectionConfig connection =
        fixture
            .load(ONE_CONNECTION.replace("- unit: hosts", "- unit: hosts\n          row_key: /id"))
            .connections()
            .get(0);

    UnitSpec spec = connection.spec(connection.source().units().get(0));

    assertThat(spec).isEqualTo(new UnitSpec("inventory", "hosts", Shape.DUMP, Optional.of("/id")));
    assertThat(spec.store()).isEqualTo("inventory.hosts");
  }

  @Test
  void aKeyWithNoValueTakesItsDefault() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            scheduler:
              default_interval_secs:
            sources:
              file:
                inventory:
                  topic: inventory
                  filter:
                  units: [{unit: hosts, dump: {paths: [x]}}]
            """);

    assertThat(config.scheduler().defaultIntervalSecs()).isEqualTo(300);
    assertThat(config.connections().get(0).filter()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a zero interval         | scheduler: {default_interval_secs: 0}        | config.yaml:1:36: scheduler.default_interval_secs: must be at least 1, was 0
          no concurrent fetches   | scheduler: {max_concurrent_fetches: 0}       | config.yaml:1:37: scheduler.max_concurrent_fetches: must be at least 1, was 0
          too much jitter         | scheduler: {jitter_percent: 51}              | config.yaml:1:29: scheduler.jitter_percent: must be at most 50, was 51
          a negative Vault TTL    | vault: {cache_ttl_secs: -1}                  | config.yaml:1:25: vault.cache_ttl_secs: must be at least 0, was -1
          a word for a number     | scheduler: {max_concurrent_fetches: four}    | config.yaml:1:37: scheduler.max_concurrent_fetches: must be an integer, not a string
          a huge number           | batch_holder: 1                               | config.yaml:1:1: batch_holder: unknown key; allowed keys: instance_id, scheduler, output, dlq, oversize, cursor, metrics, vault, sources
          a number for a mapping  | scheduler: 5                                 | config.yaml:1:12: scheduler: must be a mapping, not an integer
          a number for a string   | instance_id: 42                              | config.yaml:1:14: instance_id: must be a string, not an integer (quote it to make it a string)
          a string for a boolean  | dlq: {enabled: 'yes'}                        | config.yaml:1:16: dlq.enabled: must be a boolean (true or false), not a string
          an empty DLQ topic      | dlq: {topic: ''}                             | config.yaml:1:14: dlq.topic: must not be empty
          a topic with a space    | dlq: {topic: dead letters}                   | config.yaml:1:14: dlq.topic: may hold only letters, digits, '.', '_' and '-' (Kafka topic names)
          an unknown output type  | output: {type: s3}                           | config.yaml:1:16: output.type: unknown output type 's3'; one of file, kafka
          a port out of range     | metrics: {address: '127.0.0.1:70000'}        | config.yaml:1:20: metrics.address: '127.0.0.1:70000' is not HOST:PORT with a port from 0 to 65535 (0 picks any free port), e.g. 127.0.0.1:9090 or [::1]:9090
          an address with no port | metrics: {address: localhost}                | config.yaml:1:20: metrics.address: 'localhost' is not HOST:PORT with a port from 0 to 65535 (0 picks any free port), e.g. 127.0.0.1:9090 or [::1]:9090
          a bare IPv6 address     | metrics: {address: '::1:9090'}               | config.yaml:1:20: metrics.address: '::1:9090' is not HOST:PORT with a port from 0 to 65535 (0 picks any free port), e.g. 127.0.0.1:9090 or [::1]:9090
          a broker with no port   | output: {kafka: {bootstrap_servers: 'a:1,b'}} | config.yaml:1:37: output.kafka.bootstrap_servers: 'a:1,b' is not a comma-separated list of HOST:PORT, e.g. 10.0.0.1:9092,10.0.0.2:9092
          no rows per batch       | output: {batch: {max_rows: 0}}               | config.yaml:1:28: output.batch.max_rows: must be at least 1, was 0
          a negative linger       | output: {batch: {linger_ms: -1}}             | config.yaml:1:29: output.batch.linger_ms: must be at least 0, was -1
          a negative rotation     | output: {file: {rotate_bytes: -1}}           | config.yaml:1:31: output.file.rotate_bytes: must be at least 0, was -1
          a negative retention    | output: {file: {retain_files: -2}}           | config.yaml:1:31: output.file.retain_files: must be at least 0, was -2
          a zero record size      | oversize: {max_record_bytes: 0}              | config.yaml:1:30: oversize.max_record_bytes: must be at least 1, was 0
          an empty directory      | cursor: {directory: ''}                      | config.yaml:1:21: cursor.directory: must not be empty
          an instance with a dot  | instance_id: eu.west                         | config.yaml:1:14: instance_id: must not contain '.'
          """)
  void aBadValueIsReportedAtItsLineAndColumnWithItsPath(String what, String yaml, String problem) {
    assertThat(fixture.problems(yaml)).containsExactly(problem);
  }

  private static final String CONNECTION_TEMPLATE =
      """
      sources:
        file:
          inventory:
            topic: inventory
            interval_secs: 60
            filter: record.alive == true
            units: [{unit: hosts, dump: {paths: [x]}}]
      """;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a negative interval            | interval_secs | interval_secs: -5 | config.yaml:5:22: sources.file.inventory.interval_secs: must be at least 1, was -5
          an empty topic                 | topic         | topic: ''         | config.yaml:4:14: sources.file.inventory.topic: must not be empty
          a topic that is a number       | topic         | topic: 2024       | config.yaml:4:14: sources.file.inventory.topic: must be a string, not an integer (quote it to make it a string)
          a filter that does not compile | filter        | filter: 'f((x)'   | config.yaml:6:15: sources.file.inventory.filter: does not compile: unbalanced parentheses at '(('
          an empty filter                | filter        | filter: ' '       | config.yaml:6:15: sources.file.inventory.filter: must not be empty; leave filter out to land every row
          an unknown connection key      | interval_secs | shape: dump       | config.yaml:5:7: sources.file.inventory.shape: unknown key; allowed keys: topic, interval_secs, enabled, filter, filter_errors, units
          no units                       | units         | units: []         | config.yaml:7:14: sources.file.inventory.units: needs at least one unit
          an unknown filter_errors       | filter        | filter_errors: skip | config.yaml:6:22: sources.file.inventory.filter_errors: unknown value 'skip'; one of keep (the default), drop
          """)
  void aBadConnectionSettingIsReportedAtItsLineAndColumnWithItsPath(
      String what, String replaced, String setting, String problem) {
    String yaml = replaceSetting(CONNECTION_TEMPLATE, replaced, setting);

    assertThat(fixture.problems(yaml)).containsExactly(problem);
  }

  private static final String UNIT_TEMPLATE =
      """
      sources:
        file:
          inventory:
            topic: inventory
            units:
              - unit: hosts
                row_key: /id
                dump:
                  paths: [x]
                  decoder: auto
      """;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a unit name with a dot       | unit    | unit: hosts.eu       | config.yaml:6:17: sources.file.inventory.units[0].unit: must not contain '.'
          a unit name with a slash     | unit    | unit: hosts/eu       | config.yaml:6:17: sources.file.inventory.units[0].unit: may hold only letters, digits, '_' and '-'
          a row key that is no pointer | row_key | row_key: id          | config.yaml:7:20: sources.file.inventory.units[0].row_key: "id" is not a JSON pointer (it starts with /): Invalid input: JSON Pointer expression must start with '/': "id"
          an empty row key             | row_key | row_key: ''          | config.yaml:7:20: sources.file.inventory.units[0].row_key: must name a field, e.g. /id (an empty pointer is the whole record)
          an unknown decoder           | decoder | decoder: xml         | config.yaml:10:22: sources.file.inventory.units[0].dump.decoder: unknown decoder 'xml'; one of auto, ndjson, json_array, csv
          a glob that does not parse   | paths   | paths: ['data/{a,b'] | config.yaml:9:21: sources.file.inventory.units[0].dump.paths[0]: is not a valid glob: a group {... is not closed
          no paths                     | paths   | paths: []            | config.yaml:9:20: sources.file.inventory.units[0].dump.paths: needs at least one path
          paths given as one string    | paths   | paths: data/*.ndjson | config.yaml:9:20: sources.file.inventory.units[0].dump.paths: must be a list, not a string
          """)
  void aBadUnitSettingIsReportedAtItsLineAndColumnWithItsPath(
      String what, String replaced, String setting, String problem) {
    String yaml = replaceSetting(UNIT_TEMPLATE, replaced, setting);

    assertThat(fixture.problems(yaml)).containsExactly(problem);
  }

  @Test
  void everyProblemIsReportedAtOnceInFileOrder() {
    List<String> problems =
        fixture.problems(
            """
            instance_id: eu.west
            scheduler:
              default_interval_secs: 0
              every: 5
            metrics: {address: nowhere}
            sources:
              file:
                inventory:
                  topic: inventory
                  filter: "((alive"
                  units:
                    - unit: hosts
                      dump: {paths: [x], decoder: zip}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:1:14: instance_id: must not contain '.'",
            "config.yaml:3:26: scheduler.default_interval_secs: must be at least 1, was 0",
            "config.yaml:4:3: scheduler.every: unknown key; allowed keys: default_interval_secs,"
                + " max_concurrent_fetches, stop_grace_secs, jitter_percent",
            "config.yaml:5:20: metrics.address: 'nowhere' is not HOST:PORT with a port from 0 to"
                + " 65535 (0 picks any free port), e.g. 127.0.0.1:9090 or [::1]:9090",
            "config.yaml:10:15: sources.file.inventory.filter: does not compile: unbalanced"
                + " parentheses at '(('",
            "config.yaml:13:39: sources.file.inventory.units[0].dump.decoder: unknown decoder"
                + " 'zip'; one of auto, ndjson, json_array, csv");
  }

  @Test
  void aRepeatedKeyIsReportedWhereItIsRepeated() {
    List<String> problems =
        fixture.problems(
            """
            scheduler:
              default_interval_secs: 10
              default_interval_secs: 20
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:3:3: scheduler.default_interval_secs: duplicate key"
                + " 'default_interval_secs' (first at config.yaml:2:3)");
  }

  @Test
  void twoUnitsOfOneNameInAConnectionAreRefused() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inventory:
                  topic: inventory
                  units:
                    - {unit: hosts, dump: {paths: [a]}}
                    - {unit: hosts, dump: {paths: [b]}}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:7:18: sources.file.inventory.units[1].unit: duplicate unit name 'hosts'"
                + " in this connection (first at config.yaml:6:18)");
  }

  @Test
  void theSameUnitNameInTwoConnectionsIsFine() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              file:
                eu:
                  topic: eu
                  units: [{unit: hosts, dump: {paths: [a]}}]
                us:
                  topic: us
                  units: [{unit: hosts, dump: {paths: [b]}}]
            """);

    assertThat(config.connections()).extracting(ConnectionConfig::id).containsExactly("eu", "us");
  }

  @Test
  void aConnectionIdWithADotIsRefusedAtTheId() {
    List<String> problems = fixture.problems(ONE_CONNECTION.replace("inventory:", "inventory.eu:"));

    assertThat(problems)
        .containsExactly("config.yaml:3:5: sources.file.inventory.eu: must not contain '.'");
  }

  @Test
  void aConnectionIdUsedByTwoSourceFamiliesIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                crm:
                  topic: crm
                  units: [{unit: accounts, dump: {paths: [a]}}]
              rest:
                crm:
                  topic: crm-api
                  profile: generic-json
                  vars: {base_url: "https://crm.example.com", path: /accounts}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:7:5: sources.rest.crm: connection id 'crm' is already used by"
                + " sources.file.crm (config.yaml:3:5); ids must be unique across sources.file,"
                + " sources.db and sources.rest");
  }

  @Test
  void aRestConnectionIsBoundByItsFamilyWhichNamesTheShippedProfiles() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              rest:
                lab: {profile: lab, topic: assets}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:3:20: sources.rest.lab.profile: no shipped profile named 'lab'; one of"
                + " "
                + String.join(", ", ShippedProfiles.NAMES)
                + ", or an inline profile (a mapping)");
  }

  @Test
  void aConnectionWithoutTopicOrUnitsIsToldBothAreRequired() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inventory:
                  enabled: true
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:4:7: sources.file.inventory.topic: is required",
            "config.yaml:4:7: sources.file.inventory.units: is required");
  }

  @Test
  void aUnitWithoutNameOrDumpIsToldBothAreRequired() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inventory:
                  topic: inventory
                  units:
                    - enabled: true
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:6:11: sources.file.inventory.units[0].unit: is required",
            "config.yaml:6:11: sources.file.inventory.units[0].dump: is required (or tail, for a"
                + " unit that follows growing files)");
  }

  @Test
  void aConnectionThatIsNotAMappingIsReportedOnce() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inventory: yes
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:3:16: sources.file.inventory: must be a mapping, not a boolean");
  }

  @Test
  void aUnitTopicLongerThanKafkaAllowsIsRefused() {
    String topic = "t".repeat(240);
    List<String> problems =
        fixture.problems(ONE_CONNECTION.replace("topic: inventory", "topic: " + topic));

    assertThat(problems)
        .containsExactly(
            "config.yaml:6:17: sources.file.inventory.units[0].unit: lands on topic '"
                + topic
                + "-hosts_land', 251 characters; Kafka allows 249");
  }

  @Test
  void kafkaPropertiesMustBeScalarsAndMustNotRepeatBootstrapServers() {
    List<String> problems =
        fixture.problems(
            """
            output:
              kafka:
                properties:
                  bootstrap.servers: other:9092
                  linger.ms: [5]
                  acks: all
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:4:7: output.kafka.properties.bootstrap.servers: set"
                + " output.kafka.bootstrap_servers instead of this property",
            "config.yaml:5:18: output.kafka.properties.linger.ms: must be a string, number or"
                + " boolean, not a list");
  }

  @Test
  void aSecretSpecThatNamesNoVariableIsRefused() {
    List<String> problems =
        fixture.problems("output: {kafka: {properties: {sasl.jaas.config: 'env:'}}}");

    assertThat(problems)
        .containsExactly(
            "config.yaml:1:49: output.kafka.properties.sasl.jaas.config: env: needs an environment"
                + " variable name (letters, digits, '_'), e.g. env:KAFKA_PASSWORD");
  }

  @Test
  void textThatIsNotYamlIsReportedAtTheFaultWithoutQuotingTheLine() {
    List<String> problems =
        fixture.problems("instance_id: demo\nscheduler:\n\tdefault_interval_secs: 5\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:3:1: not valid YAML: found character '\\t(TAB)' that cannot start any"
                + " token. (Do not use \\t(TAB) for indentation)");
  }

  @Test
  void aSecondYamlDocumentIsRefused() {
    List<String> problems = fixture.problems("instance_id: a\n---\ninstance_id: b\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:3:1: a second YAML document ('---') starts here; the configuration must"
                + " be one document");
  }

  @Test
  void anAliasIsRefusedRatherThanResolvedToItsName() {
    List<String> problems =
        fixture.problems(
            """
            dlq: {topic: &dead dead_letters}
            instance_id: *dead
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:2:14: instance_id: YAML aliases (*name) are not supported; write the"
                + " value out in full");
  }

  @Test
  void aTopLevelThatIsNotAMappingIsRefused() {
    assertThat(fixture.problems("- a\n- b\n"))
        .containsExactly("config.yaml:1:1: must be a mapping, not a list");
  }

  @Test
  void aMissingFileIsReportedByName() {
    Path missing = directory.resolve("absent.yaml");

    assertThat(
            Assertions.catchThrowableOfType(
                ConfigException.class,
                () -> ConfigLoader.load(missing, Map.of(), ConfigFixture.FAKE_FILTERS)))
        .hasMessage(missing + ": cannot read: no such file");
  }

  @Test
  void aFileThatIsNotUtf8IsReportedByName() throws Exception {
    Path file = directory.resolve("latin1.yaml");
    Files.write(file, "instance_id: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

    assertThat(
            Assertions.catchThrowableOfType(
                ConfigException.class,
                () -> ConfigLoader.load(file, Map.of(), ConfigFixture.FAKE_FILTERS)))
        .hasMessage(file + ": is not UTF-8 text");
  }

  /** {@code template} with the line that sets {@code key} setting {@code setting} instead. */
  private static String replaceSetting(String template, String key, String setting) {
    String replaced = template.replaceFirst("(?m)^(\\s*(?:- )?)" + key + ":.*$", "$1" + setting);
    assertThat(replaced).as("the template sets " + key).isNotEqualTo(template);
    return replaced;
  }
}
