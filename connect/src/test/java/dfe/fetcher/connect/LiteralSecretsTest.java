package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connect returns {@code dfe.config} as written to anyone who may read {@code GET
 * /connectors/<name>/config}, so a secret written into it literally is refused, at validate and at
 * start, naming its config path; {@code env:} and {@code file:} references are taken.
 */
class LiteralSecretsTest {

  @TempDir Path directory;

  private static String rest(String token) {
    return """
        sources:
          rest:
            gh:
              profile: github-issues
              topic: github
              vars: {owner: acme, repo: fetcher}
              auth: {mode: bearer, token: "%s"}
        """
        .formatted(token);
  }

  private static List<String> errors(Map<String, String> properties) {
    return new DfeSourceConnector()
        .validate(properties).configValues().stream()
            .filter(value -> value.name().equals(ConnectorSettings.CONFIG))
            .findFirst()
            .map(ConfigValue::errorMessages)
            .orElseThrow();
  }

  @Test
  void aLiteralSecretInDfeConfigIsRefusedNamingItsPathNotItsValue() {
    List<String> errors = errors(Map.of(ConnectorSettings.CONFIG, rest("ghp_literal123")));

    assertThat(errors)
        .singleElement()
        .asString()
        .startsWith("dfe.config:7:35: sources.rest.gh.auth.token: a literal secret")
        .contains("GET /connectors/<name>/config")
        .contains("env:")
        .doesNotContain("ghp_literal123");
  }

  @Test
  void aConnectorStartedWithALiteralSecretFailsNamingItsPath() {
    assertThatThrownBy(
            () ->
                new DfeSourceConnector()
                    .start(Map.of(ConnectorSettings.CONFIG, rest("literal:env:not-a-reference"))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("sources.rest.gh.auth.token: a literal secret")
        .hasMessageNotContaining("not-a-reference");
  }

  @Test
  void environmentAndFileReferencesAreTaken() throws Exception {
    Path token = Files.writeString(directory.resolve("token"), "ghp_in_a_file\n");

    assertThat(errors(Map.of(ConnectorSettings.CONFIG, rest("env:GITHUB_TOKEN")))).isEmpty();
    assertThat(errors(Map.of(ConnectorSettings.CONFIG, rest("file:" + token)))).isEmpty();
  }

  @Test
  void anEmptyPasswordShowsNothingAndIsTaken() {
    String h2 =
        """
        sources:
          db:
            shop:
              url: "jdbc:h2:mem:shop"
              user: sa
              password: ""
              topic: shop
              stores:
                - {unit: stock, shape: dump, query: "SELECT sku FROM stock", row_key: /sku}
        """;

    assertThat(errors(Map.of(ConnectorSettings.CONFIG, h2))).isEmpty();
  }

  @Test
  void aFileOnTheWorkersMayHoldALiteralSinceConnectNeverShowsIt() throws Exception {
    Path config = Files.writeString(directory.resolve("dfe.yaml"), rest("ghp_literal123"));

    assertThat(
            new DfeSourceConnector()
                .validate(Map.of(ConnectorSettings.CONFIG_FILE, config.toString()))
                .configValues())
        .allSatisfy(value -> assertThat(value.errorMessages()).isEmpty());
  }
}
