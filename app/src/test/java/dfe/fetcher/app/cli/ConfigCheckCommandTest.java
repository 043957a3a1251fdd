package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** {@code dfe-fetcher config-check}: its summary, its problems, and the secrets it never shows. */
class ConfigCheckCommandTest {

  private static final String SECRET = "hunter2-kafka-password";

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger fetcherLog = (Logger) LoggerFactory.getLogger("dfe.fetcher");

  @BeforeEach
  void setUp() {
    workspace = new FetcherWorkspace(directory);
    logged.start();
    fetcherLog.addAppender(logged);
  }

  @AfterEach
  void tearDown() {
    fetcherLog.detachAppender(logged);
  }

  @Test
  void aValidConfigurationPrintsItsSummaryAndExitsZero() {
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  file:
                    inventory:
                      topic: inventory
                      interval_secs: 60
                      filter: 'record.alive == true'
                      units:
                        - unit: hosts
                          row_key: /id
                          dump: {paths: [data/hosts/*.ndjson]}
                """);
    workspace.write("data/hosts/a.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("config: " + config)
        .contains("instance: test")
        .contains("output: file, into " + directory.resolve("landing"))
        .contains("metrics: 127.0.0.1:0 (any free port)")
        .contains("connections: 1")
        .contains("  file inventory: every 60s, filter record.alive == true")
        .contains(
            "    unit hosts: dump to topic inventory-hosts_land, store inventory.hosts,"
                + " row_key /id",
            "      decoder auto")
        .contains("      path " + directory.resolve("data/hosts/*.ndjson"));
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aConfigurationWithSeveralProblemsExitsTwoAndPrintsEachWithItsPlace() {
    Path config =
        workspace.config(
            """
            instance_id: test
            scheduler: {max_concurrent_fetches: 0}
            output:
              colour: blue
            sources:
              file:
                inventory:
                  topic: inventory
                  interval_secs: 0
                  units:
                    - unit: "hosts.v2"
                      dump: {paths: [data/*.ndjson]}
            """);

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .containsExactly(
            config + ":2:37: scheduler.max_concurrent_fetches: must be at least 1, was 0",
            config
                + ":4:3: output.colour: unknown key; allowed keys: type, topic_suffix,"
                + " file, kafka, batch",
            config + ":9:22: sources.file.inventory.interval_secs: must be at least 1, was 0",
            config + ":11:17: sources.file.inventory.units[0].unit: must not contain '.'");
  }

  @Test
  void everyKindOfMistakeAtOnceIsReportedInOneRunEachAtItsPlaceAndNoSecretIsPrinted() {
    Path config =
        workspace.config(
            """
            instance_id: test
            colour: blue
            output:
              type: kafka
              kafka:
                bootstrap_servers: "127.0.0.1:1"
              batch: {max_rows: lots}
            metrics: {address: "127.0.0.1:0"}
            sources:
              file:
                logs:
                  topic: logs
                  interval_secs: -5
                  units:
                    - unit: app
                      tail: {paths: [logs/*.log], decoder: xml, max_line_bytes: 10MB}
                    - unit: app
                      dump: {paths: [data/*.ndjson]}
              db:
                crm:
                  url: "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=%s-url"
                  password: env:DFE_TEST_UNSET_EVERY_MISTAKE
                  topic: crm
                  stores:
                    - {unit: accounts, shape: dump}
              rest:
                api:
                  topic: api
                  profile: no_such_profile
                feed:
                  topic: feed
                  auth: {mode: api_key, key: %s-key, query_param: api_key}
                  profile:
                    base_url: "http://127.0.0.1:1"
                    endpoints:
                      - {unit: events, shape: tail, path: /events, rows: {decoder: json_array},
                         query: {since: "{{ window.start }}"},
                         window: {format: rfc3339_millis, lookback: one hour}}
            """
                .formatted(SECRET, SECRET));

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    // Not only the first: one line for each mistake, in the order of the file, each with its line,
    // column and configuration path.
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .satisfiesExactly(
            line -> assertThat(line).startsWith(config + ":2:1: colour: unknown key;"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config + ":7:21: output.batch.max_rows: must be an integer, not a string"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config
                            + ":13:22: sources.file.logs.interval_secs: must be at least 1, was -5"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config
                            + ":16:48: sources.file.logs.units[0].tail.decoder: unknown value 'xml';"
                            + " one of ndjson, lines"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config
                            + ":16:69: sources.file.logs.units[0].tail.max_line_bytes: must be an"
                            + " integer, not a string"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config
                            + ":17:17: sources.file.logs.units[1].unit: duplicate unit name 'app' in"
                            + " this connection (first at "
                            + config
                            + ":15:17)"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        config
                            + ":22:17: sources.db.crm.password: environment variable"
                            + " DFE_TEST_UNSET_EVERY_MISTAKE is not set"),
            line ->
                assertThat(line)
                    .isEqualTo(config + ":25:11: sources.db.crm.stores[0].query: is required"),
            line ->
                assertThat(line)
                    .startsWith(
                        config
                            + ":29:16: sources.rest.api.profile: no shipped profile named"
                            + " 'no_such_profile'; one of "),
            line ->
                assertThat(line)
                    .startsWith(
                        config
                            + ":38:57: sources.rest.feed.profile.endpoints[0].window.lookback: must"
                            + " be a duration"));
    assertThat(run.out() + run.err()).doesNotContain("hunter2");
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(line -> line.contains("hunter2"));
  }

  @Test
  void aLiteralKafkaSecretIsNeverPrintedNorLoggedForAValidConfiguration() {
    Path config =
        workspace.config(
            """
            instance_id: test
            output:
              type: kafka
              kafka:
                bootstrap_servers: "broker:9092"
                properties:
                  sasl.jaas.config: "%s"
                  ssl.key.password: literal:%s
            """
                .formatted(SECRET, SECRET));

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("sasl.jaas.config").contains("ssl.key.password");
    assertThat(run.out() + run.err()).doesNotContain("hunter2");
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(line -> line.contains("hunter2"));
  }

  @Test
  void aLiteralKafkaSecretIsNeverPrintedNorLoggedBesideProblems() {
    Path config =
        workspace.config(
            """
            instance_id: test
            output:
              kafka:
                properties:
                  sasl.jaas.config: "%s"
                  ssl.key.password: [%s]
                  security.protocol: {value: %s}
            scheduler: {default_interval_secs: 0}
            """
                .formatted(SECRET, SECRET, SECRET));

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(3);
    assertThat(run.out() + run.err()).doesNotContain("hunter2");
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(line -> line.contains("hunter2"));
  }

  @Test
  void aKafkaPropertyTheProducerRefusesIsRefusedByConfigCheckAsRunWouldNamingItNotItsValue() {
    Path config =
        workspace.config(
            """
            output:
              type: kafka
              kafka:
                bootstrap_servers: "127.0.0.1:1"
                properties:
                  linger.ms: s3cr3t-not-a-number
            metrics: {address: "127.0.0.1:0"}
            """);

    CliRun check = CliRun.of("config-check", "--config", config.toString());

    assertThat(check.exitCode()).isEqualTo(2);
    assertThat(check.err())
        .contains("output.kafka.properties.linger.ms: not accepted by the Kafka producer")
        .doesNotContain("s3cr3t");
    assertThat(check.out()).isEmpty();
  }

  @Test
  void aKafkaSecretThatCannotBeReadNowIsRefusedByConfigCheck() {
    Path config =
        workspace.config(
            """
            output:
              type: kafka
              kafka:
                properties:
                  sasl.jaas.config: env:DFE_TEST_UNSET_SECRET_VARIABLE
            metrics: {address: "127.0.0.1:0"}
            """);

    CliRun check = CliRun.of("config-check", "--config", config.toString());

    assertThat(check.exitCode()).isEqualTo(2);
    assertThat(check.err())
        .contains(
            "output.kafka.properties.sasl.jaas.config:",
            "DFE_TEST_UNSET_SECRET_VARIABLE is not set");
  }

  @Test
  void everySecretARunWouldFailOnIsReportedAtItsPlaceWithTheOtherProblems() {
    Path config =
        workspace.config(
            """
            instance_id: test
            output:
              type: kafka
              kafka:
                bootstrap_servers: "127.0.0.1:1"
                properties:
                  sasl.jaas.config: env:DFE_TEST_UNSET_KAFKA
                  linger.ms: not-a-number
            metrics: {address: "127.0.0.1:0"}
            sources:
              db:
                crm:
                  url: "jdbc:h2:mem:crm"
                  password: env:DFE_TEST_UNSET_DB
                  topic: crm
                  interval_secs: 0
                  stores:
                    - {unit: accounts, shape: dump, query: "SELECT 1"}
                off:
                  enabled: false
                  url: "jdbc:h2:mem:off"
                  password: env:DFE_TEST_UNSET_OFF
                  topic: unused
                  stores:
                    - {unit: accounts, shape: dump, query: "SELECT 1"}
            """);

    CliRun check = CliRun.of("config-check", "--config", config.toString());

    assertThat(check.exitCode()).isEqualTo(2);
    assertThat(check.errLines())
        .containsExactly(
            config
                + ":7:25: output.kafka.properties.sasl.jaas.config: environment variable"
                + " DFE_TEST_UNSET_KAFKA is not set",
            config
                + ":8:18: output.kafka.properties.linger.ms: not accepted by the Kafka producer"
                + " (ConfigException); check its name and value",
            config
                + ":14:17: sources.db.crm.password: environment variable DFE_TEST_UNSET_DB is not set",
            config + ":16:22: sources.db.crm.interval_secs: must be at least 1, was 0");
  }

  @Test
  void aRestTokenThatCannotBeReadIsRefusedAsEveryTickWouldFailOnIt() {
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  rest:
                    gh:
                      profile: github-issues
                      topic: github
                      vars: {owner: acme, repo: fetcher}
                      auth: {mode: bearer, token: env:DFE_TEST_UNSET_TOKEN}
                """);

    CliRun check = CliRun.of("config-check", "--config", config.toString());

    assertThat(check.exitCode()).isEqualTo(2);
    assertThat(check.errLines())
        .singleElement()
        .asString()
        .endsWith(
            "sources.rest.gh.auth.token: environment variable DFE_TEST_UNSET_TOKEN is not set");
  }

  @Test
  void withTheFileOutputTheKafkaPropertiesAreListedAndTheirUnreadableSecretsNotRequired() {
    Path config =
        workspace.config(
            """
            instance_id: test
            output:
              type: file
              kafka:
                properties:
                  sasl.jaas.config: env:DFE_TEST_UNSET_KAFKA
            metrics: {address: "127.0.0.1:0"}
            """);

    CliRun check = CliRun.of("config-check", "--config", config.toString());

    assertThat(check.exitCode()).as(check.err()).isZero();
    assertThat(check.out())
        .contains("kafka properties: sasl.jaas.config (env:DFE_TEST_UNSET_KAFKA, unavailable)");
  }

  @Test
  void aGlobThatMatchesNoFileRightNowIsAHintNotAnError() {
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

    CliRun run = CliRun.of("config-check", "--config", config.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err())
        .contains(
            "hint: ",
            "sources.file.inventory.units[0].unit: dump.paths \""
                + directory.resolve("data/hosts/*.ndjson")
                + "\" matches no file right now");
  }
}
