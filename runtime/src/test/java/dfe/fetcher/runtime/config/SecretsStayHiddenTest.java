package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * No secret value reaches a problem message, the config-check summary, a toString or a log line.
 */
class SecretsStayHiddenTest {

  private static final String LITERAL = "hunter2-literal-value";
  private static final String FROM_ENVIRONMENT = "hunter2-from-environment";
  private static final String FROM_FILE = "hunter2-from-file";

  @TempDir Path directory;

  private ConfigFixture fixture;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger overridesLog = (Logger) LoggerFactory.getLogger("dfe.fetcher.config");

  @BeforeEach
  void capture() {
    fixture = new ConfigFixture(directory);
    logged.start();
    overridesLog.addAppender(logged);
  }

  @AfterEach
  void release() {
    overridesLog.detachAppender(logged);
  }

  private static final String KAFKA_WITH_SECRETS =
      """
      output:
        type: kafka
        kafka:
          bootstrap_servers: "broker:9092"
          properties:
            sasl.jaas.config: "%s"
            ssl.truststore.password: env:TRUSTSTORE_PASSWORD
            ssl.key.password: file:key-password
            security.protocol: SASL_SSL
      """
          .formatted(LITERAL);

  @Test
  void aProblemBesideALiteralSecretDoesNotQuoteIt() {
    List<String> problems =
        fixture.problems(
            KAFKA_WITH_SECRETS.replace(
                "security.protocol: SASL_SSL", "security.protocol: [SASL_SSL]"));

    assertThat(problems)
        .containsExactly(
            "config.yaml:9:26: output.kafka.properties.security.protocol: must be a string,"
                + " number or boolean, not a list");
    assertThat(String.join("\n", problems)).doesNotContain("hunter2");
  }

  @Test
  void aSecretOfTheWrongTypeIsReportedWithoutItsValue() {
    List<String> problems =
        fixture.problems(
            KAFKA_WITH_SECRETS.replace("\"" + LITERAL + "\"", "{value: " + LITERAL + "}"));

    assertThat(problems)
        .containsExactly(
            "config.yaml:6:25: output.kafka.properties.sasl.jaas.config: must be a string, number"
                + " or boolean, not a mapping");
    assertThat(String.join("\n", problems)).doesNotContain("hunter2");
  }

  @Test
  void aSyntaxErrorOnASecretsLineDoesNotQuoteTheLine() {
    List<String> problems =
        fixture.problems(KAFKA_WITH_SECRETS.replace("\"" + LITERAL + "\"", "\"" + LITERAL));

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0)).startsWith("config.yaml:").contains("not valid YAML");
    assertThat(problems.get(0)).doesNotContain("hunter2");
  }

  @Test
  void aSecretSetByAVariableIsNeitherReportedNorLogged() {
    Map<String, String> environment =
        Map.of(
            "DFE_FETCHER_OUTPUT__KAFKA__PROPERTIES__SASL.JAAS.CONFIG",
            FROM_ENVIRONMENT,
            "DFE_FETCHER_OUTPUT__BATCH__MAX_ROWS",
            "many");

    List<String> problems = fixture.problems(KAFKA_WITH_SECRETS, environment);

    assertThat(problems)
        .containsExactly(
            "environment DFE_FETCHER_OUTPUT__BATCH__MAX_ROWS: output.batch.max_rows: must be an"
                + " integer, not a string");
    assertThat(logged.list).as("a refused configuration logs no override as applied").isEmpty();
  }

  @Test
  void anOverrideBelowASecretDoesNotQuoteTheSecret() {
    List<String> problems =
        fixture.problems(
            KAFKA_WITH_SECRETS,
            Map.of("DFE_FETCHER_OUTPUT__KAFKA__PROPERTIES__SASL.JAAS.CONFIG__USER", "x"));

    assertThat(problems)
        .containsExactly(
            "environment DFE_FETCHER_OUTPUT__KAFKA__PROPERTIES__SASL.JAAS.CONFIG__USER:"
                + " output.kafka.properties.sasl.jaas.config: is a string at config.yaml:6:25, so"
                + " it has no setting 'user' to override");
  }

  @Test
  void theSummaryNamesWhereSecretsComeFromButNotTheirValues() throws Exception {
    Files.writeString(directory.resolve("key-password"), FROM_FILE);
    FetcherConfig config =
        fixture.load(KAFKA_WITH_SECRETS, Map.of("TRUSTSTORE_PASSWORD", FROM_ENVIRONMENT));

    String summary = ConfigSummary.render(config);

    assertThat(summary)
        .contains(
            "kafka properties: sasl.jaas.config (literal), ssl.truststore.password"
                + " (env:TRUSTSTORE_PASSWORD), ssl.key.password (file:"
                + directory.resolve("key-password")
                + "), security.protocol (literal)")
        .doesNotContain("hunter2");
  }

  @Test
  void theSummaryMarksASecretThatCannotBeResolvedNow() throws Exception {
    FetcherConfig config = fixture.load(KAFKA_WITH_SECRETS);

    assertThat(ConfigSummary.render(config))
        .contains("ssl.truststore.password (env:TRUSTSTORE_PASSWORD, unavailable)")
        .contains("ssl.key.password (file:" + directory.resolve("key-password") + ", unavailable)");
  }

  @Test
  void theLoadedConfigPrintsNoSecret() throws Exception {
    Files.writeString(directory.resolve("key-password"), FROM_FILE);
    FetcherConfig config =
        fixture.load(KAFKA_WITH_SECRETS, Map.of("TRUSTSTORE_PASSWORD", FROM_ENVIRONMENT));

    assertThat(config.output().kafka().properties().get("sasl.jaas.config").reveal())
        .isEqualTo(LITERAL);
    assertThat(config.toString()).contains("sasl.jaas.config=***").doesNotContain("hunter2");
  }

  @Test
  void aRestInstancesCredentialsAppearInNoSummaryOrToString() throws Exception {
    FetcherConfig config =
        fixture.load(
            """
            sources:
              rest:
                lab:
                  topic: lab
                  auth:
                    mode: oauth2_client_credentials
                    token_url: https://login.example.com/token
                    client_id: fetcher
                    client_secret: "%s"
                  profile:
                    base_url: https://api.example.com
                    endpoints: [{unit: a, shape: dump, path: /a, rows: {decoder: json_array}}]
            """
                .formatted(LITERAL));

    assertThat(ConfigSummary.render(config))
        .contains("auth oauth2_client_credentials")
        .doesNotContain("hunter2");
    assertThat(config.toString()).doesNotContain("hunter2");
    assertThat(config.connections().get(0).source().toString()).doesNotContain("hunter2");
  }
}
