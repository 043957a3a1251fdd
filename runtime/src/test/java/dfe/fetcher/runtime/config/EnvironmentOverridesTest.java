package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.source.config.Secret;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** {@code DFE_FETCHER_<PATH>} variables, applied through {@link ConfigLoader#load}. */
class EnvironmentOverridesTest {

  @TempDir Path directory;

  private ConfigFixture fixture;

  @BeforeEach
  void fixture() {
    fixture = new ConfigFixture(directory);
  }

  private static final String INVENTORY =
      """
      scheduler: {default_interval_secs: 300}
      sources:
        file:
          inventory:
            topic: inventory
            interval_secs: 60
            units:
              - unit: hosts
                dump: {paths: [data/*.ndjson]}
      """;

  @Test
  void aNumberOverridesANumberSetting() throws Exception {
    FetcherConfig config =
        fixture.load(INVENTORY, Map.of("DFE_FETCHER_SCHEDULER__DEFAULT_INTERVAL_SECS", "60"));

    assertThat(config.scheduler().defaultIntervalSecs()).isEqualTo(60);
  }

  @Test
  void aVariableReachesASettingInsideAConnection() throws Exception {
    FetcherConfig config =
        fixture.load(INVENTORY, Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__INTERVAL_SECS", "5"));

    assertThat(config.connections().get(0).intervalSecs()).isEqualTo(OptionalInt.of(5));
  }

  @Test
  void aBooleanOverridesABooleanSetting() throws Exception {
    FetcherConfig config =
        fixture.load(INVENTORY, Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__ENABLED", "false"));

    assertThat(config.connections().get(0).enabled()).isFalse();
  }

  @Test
  void aVariableSetsWhatTheFileLeavesOut() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY,
            Map.of(
                "DFE_FETCHER_OUTPUT__KAFKA__BOOTSTRAP_SERVERS", "broker-1:9092,broker-2:9092",
                "DFE_FETCHER_OUTPUT__TYPE", "kafka"));

    assertThat(config.output().type()).isEqualTo(OutputType.KAFKA);
    assertThat(config.output().kafka().bootstrapServers()).isEqualTo("broker-1:9092,broker-2:9092");
  }

  @Test
  void aStringSettingTakesTheValueVerbatimWhateverYamlWouldMakeOfIt() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY,
            Map.of("DFE_FETCHER_INSTANCE_ID", "2024", "DFE_FETCHER_OUTPUT__TOPIC_SUFFIX", ""));

    assertThat(config.instanceId()).isEqualTo("2024");
    assertThat(config.output().topicSuffix()).isEmpty();
  }

  @Test
  void aVariableOverridesAKafkaPropertyAsASecretSpec() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY,
            Map.of(
                "DFE_FETCHER_OUTPUT__KAFKA__PROPERTIES__SASL.JAAS.CONFIG", "env:JAAS",
                "JAAS", "org.apache.kafka.common.security.plain.PlainLoginModule required;"));

    Secret jaas = config.output().kafka().properties().get("sasl.jaas.config");
    assertThat(jaas.describe()).isEqualTo("env:JAAS");
    assertThat(jaas.reveal()).startsWith("org.apache.kafka.common.security.plain");
  }

  @Test
  void aConnectionIdIsMatchedWithoutRegardToCase() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY.replace("inventory:", "Inventory:"),
            Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__ENABLED", "false"));

    assertThat(config.connections()).hasSize(1);
    assertThat(config.connections().get(0).id()).isEqualTo("Inventory");
    assertThat(config.connections().get(0).enabled()).isFalse();
  }

  @Test
  void anIndexSelectsAnExistingListItem() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY, Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__UNITS__0__ENABLED", "no"));

    assertThat(config.connections().get(0).source().units().get(0).enabled()).isFalse();
  }

  @Test
  void aBadValueIsReportedNamingTheVariable() {
    assertThat(
            fixture.problems(
                INVENTORY,
                Map.of(
                    "DFE_FETCHER_SCHEDULER__MAX_CONCURRENT_FETCHES", "0",
                    "DFE_FETCHER_SOURCES__FILE__INVENTORY__INTERVAL_SECS", "soon")))
        .containsExactly(
            "environment DFE_FETCHER_SCHEDULER__MAX_CONCURRENT_FETCHES:"
                + " scheduler.max_concurrent_fetches: must be at least 1, was 0",
            "environment DFE_FETCHER_SOURCES__FILE__INVENTORY__INTERVAL_SECS:"
                + " sources.file.inventory.interval_secs: must be an integer, not a string");
  }

  @Test
  void aVariableNamingNoSettingIsReportedWithTheKeysAllowedThere() {
    assertThat(fixture.problems(INVENTORY, Map.of("DFE_FETCHER_SCHEDULER__INTERVAL", "5")))
        .containsExactly(
            "environment DFE_FETCHER_SCHEDULER__INTERVAL: scheduler.interval: unknown key;"
                + " allowed keys: default_interval_secs, max_concurrent_fetches, stop_grace_secs,"
                + " jitter_percent");
  }

  @Test
  void theFilesProblemsComeFirstThenTheVariablesByName() {
    assertThat(
            fixture.problems(
                INVENTORY.replace("topic: inventory", "topic: ''"),
                Map.of(
                    "DFE_FETCHER_OVERSIZE__MAX_DLQ_BYTES", "-1",
                    "DFE_FETCHER_DLQ__TOPIC", "dead letters")))
        .containsExactly(
            "config.yaml:5:14: sources.file.inventory.topic: must not be empty",
            "environment DFE_FETCHER_DLQ__TOPIC: dlq.topic: may hold only letters, digits, '.',"
                + " '_' and '-' (Kafka topic names)",
            "environment DFE_FETCHER_OVERSIZE__MAX_DLQ_BYTES: oversize.max_dlq_bytes: must be at"
                + " least 0, was -1");
  }

  @Test
  void aLevelBelowAScalarIsReported() {
    assertThat(
            fixture.problems(
                INVENTORY, Map.of("DFE_FETCHER_SCHEDULER__DEFAULT_INTERVAL_SECS__MIN", "1")))
        .containsExactly(
            "environment DFE_FETCHER_SCHEDULER__DEFAULT_INTERVAL_SECS__MIN:"
                + " scheduler.default_interval_secs: is an integer at config.yaml:1:36, so it has"
                + " no setting 'min' to override");
  }

  @Test
  void anIndexPastTheEndOfAListIsReported() {
    assertThat(
            fixture.problems(
                INVENTORY, Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__UNITS__1__ENABLED", "no")))
        .containsExactly(
            "environment DFE_FETCHER_SOURCES__FILE__INVENTORY__UNITS__1__ENABLED:"
                + " sources.file.inventory.units: is a list: the next level must be the index of an"
                + " existing item (0 to 0), not '1'");
  }

  @Test
  void aNameWithAnEmptyLevelIsReported() {
    assertThat(fixture.problems(INVENTORY, Map.of("DFE_FETCHER_SCHEDULER____X", "1")))
        .containsExactly(
            "environment DFE_FETCHER_SCHEDULER____X: is not a setting path: name levels after"
                + " DFE_FETCHER_ separated by '__', e.g."
                + " DFE_FETCHER_SCHEDULER__DEFAULT_INTERVAL_SECS");
  }

  @Test
  void theLaunchersVariablesAndOtherVariablesAreNotSettings() throws Exception {
    FetcherConfig config =
        fixture.load(
            INVENTORY,
            Map.of(
                "DFE_FETCHER_JAVA_OPTS", "-Xmx512m",
                "DFE_FETCHER_LOG_LEVEL", "DEBUG",
                "DFE_FETCHER_PROGRESS", "never",
                "PATH", "/usr/bin",
                "dfe_fetcher_instance_id", "lower-case-is-not-ours"));

    assertThat(config.instanceId()).isEqualTo("default");
  }

  @Test
  void eachAppliedOverrideIsLoggedWithTheSettingItSetButNotItsValue() throws Exception {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger log = (Logger) LoggerFactory.getLogger("dfe.fetcher.config");
    log.addAppender(logged);
    try {
      fixture.load(
          INVENTORY.replace("inventory:", "Inventory:"),
          Map.of("DFE_FETCHER_SOURCES__FILE__INVENTORY__UNITS__0__ROW_KEY", "/serial-4711"));
    } finally {
      log.detachAppender(logged);
    }

    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "event=config_override variable=DFE_FETCHER_SOURCES__FILE__INVENTORY__UNITS__0__ROW_KEY"
                + " setting=sources.file.Inventory.units[0].row_key");
  }

  @Test
  void aVariableThatNamesNoSettingIsRefusedAndNeverLoggedAsApplied() {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger log = (Logger) LoggerFactory.getLogger("dfe.fetcher.config");
    log.addAppender(logged);
    List<String> problems;
    try {
      problems = fixture.problems(INVENTORY, Map.of("DFE_FETCHER_SCHEDULER__NO_SUCH_SETTING", "1"));
    } finally {
      log.detachAppender(logged);
    }

    assertThat(problems).singleElement().asString().contains("scheduler.no_such_setting");
    assertThat(logged.list).isEmpty();
  }

  @Test
  void aLogLevelThatIsNoLevelIsRefused() {
    assertThat(fixture.problems(INVENTORY, Map.of("DFE_FETCHER_LOG_LEVEL", "LOUD")))
        .containsExactly(
            "environment DFE_FETCHER_LOG_LEVEL: 'LOUD' is not a log level; one of TRACE, DEBUG, INFO, WARN,"
                + " ERROR, OFF");
  }
}
