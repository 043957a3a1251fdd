package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configurations that could load but never work are refused when loaded, at their line. */
class RefusedAtLoadTest {

  @TempDir Path directory;
  private ConfigFixture fixture;

  @BeforeEach
  void setUp() {
    fixture = new ConfigFixture(directory);
  }

  @Test
  void twoUnitsWhoseNamesJoinToTheSameTopicAreRefused() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inv:
                  topic: inv
                  units: [{unit: a-b, dump: {paths: [x]}}]
                inv-a:
                  topic: inv-a
                  units: [{unit: b, dump: {paths: [y]}}]
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:8:22: sources.file.inv-a.units[0].unit: lands on topic 'inv-a-b_land',"
                + " already used by sources.file.inv.units[0].unit (config.yaml:5:22); give one of"
                + " them another topic or unit name");
  }

  @Test
  void tailStoresOfOneConnectionShareItsTopic() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              db:
                crm:
                  url: "jdbc:h2:mem:crm"
                  topic: crm
                  stores:
                    - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id]}
                    - {unit: audit, shape: tail, query: "SELECT * FROM audit", key: [id]}
            """);

    assertThat(config.connections().get(0).source().units()).hasSize(2);
  }

  @Test
  void aTailOnADumpsTopicIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inv:
                  topic: inv
                  units: [{unit: a, dump: {paths: [x]}}]
              db:
                crm:
                  url: "jdbc:h2:mem:crm"
                  topic: inv-a
                  stores:
                    - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id]}
            """);

    assertThat(problems)
        .containsExactly(
            "config.yaml:11:18: sources.db.crm.stores[0].unit: lands on topic 'inv-a_land',"
                + " already used by sources.file.inv.units[0].unit (config.yaml:5:22); a dump"
                + " needs a topic of its own; give one of them another topic or unit name");
  }

  @Test
  void aUnitLandingOnTheDeadLetterTopicIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            output: {topic_suffix: ''}
            dlq: {topic: inv-hosts}
            sources:
              file:
                inv:
                  topic: inv
                  units: [{unit: hosts, dump: {paths: [x]}}]
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("config.yaml:7:22: sources.file.inv.units[0].unit: lands on topic 'inv-hosts',")
        .contains("already used by dlq.topic");
  }

  @Test
  void aTransactionalIdAmongTheProducerPropertiesIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            output:
              kafka:
                properties:
                  transactional.id: fetcher-1
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("config.yaml:4:7: output.kafka.properties.transactional.id: the fetcher's")
        .contains("idempotent, not transactional");
  }

  @Test
  void aDeadLetterCopyWhoseBase64CannotFitAKafkaRequestIsRefused() {
    List<String> problems =
        fixture.problems(
            """
            output: {type: kafka}
            oversize: {max_record_bytes: 1000, max_dlq_bytes: 100000}
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("config.yaml:2:51: oversize.max_dlq_bytes: a DLQ entry of 100000 bytes")
        .contains("lower max_dlq_bytes to at most 46830");
  }

  @Test
  void aDeadLetterCopyThatJustFitsIsAccepted() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            output: {type: kafka}
            oversize: {max_record_bytes: 1000, max_dlq_bytes: 46830}
            """);

    assertThat(config.oversize().maxDlqBytes()).isEqualTo(46830);
  }

  @Test
  void aRecordLimitBeyondWhatAKafkaRequestCanCarryIsRefused() {
    List<String> problems = fixture.problems("oversize: {max_record_bytes: 2000000000}\n");

    assertThat(problems)
        .containsExactly(
            "config.yaml:1:30: oversize.max_record_bytes: must be at most "
                + ConfigBinding.MAX_RECORD_BYTES
                + ", was 2000000000");
  }

  @Test
  void aLiteralPathThatNamesADirectoryIsRefused() throws Exception {
    Files.createDirectories(directory.resolve("exports"));

    List<String> problems =
        fixture.problems(
            """
            sources:
              file:
                inv:
                  topic: inv
                  units: [{unit: hosts, dump: {paths: [exports]}}]
            """);

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("config.yaml:5:44: sources.file.inv.units[0].dump.paths[0]: names a directory")
        .contains("exports/*.ndjson or exports/**");
  }
}
