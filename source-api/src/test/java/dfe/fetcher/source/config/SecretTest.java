package dfe.fetcher.source.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretTest {

  private static final String SETTING = "output.kafka.properties.sasl.jaas.config";

  @TempDir Path directory;

  private Secret parse(String spec, Map<String, String> environment) {
    return Secret.parse(spec, SETTING, environment, directory);
  }

  @Test
  void anEnvSpecRevealsTheVariableWhenAsked() {
    Secret secret = parse("env:KAFKA_PASSWORD", Map.of("KAFKA_PASSWORD", "s3cr3t"));

    assertThat(secret.kind()).isEqualTo(Secret.Kind.ENVIRONMENT);
    assertThat(secret.reveal()).isEqualTo("s3cr3t");
    assertThat(secret.describe()).isEqualTo("env:KAFKA_PASSWORD");
  }

  @Test
  void anUnsetVariableIsReportedByNameAndSetting() {
    Secret secret = parse("env:KAFKA_PASSWORD", Map.of());

    assertThatThrownBy(secret::reveal)
        .isInstanceOf(SecretUnavailableException.class)
        .hasMessage(SETTING + ": environment variable KAFKA_PASSWORD is not set");
    assertThat(secret.unavailability())
        .contains(SETTING + ": environment variable KAFKA_PASSWORD is not set");
  }

  @Test
  void aFileSpecRevealsTheFileWithoutItsTrailingLineBreaks() throws Exception {
    Files.writeString(directory.resolve("password"), "s3cr3t\r\n\n");

    Secret secret = parse("file:password", Map.of());

    assertThat(secret.reveal()).isEqualTo("s3cr3t");
    assertThat(secret.describe()).isEqualTo("file:" + directory.resolve("password"));
    assertThat(secret.unavailability()).isEmpty();
  }

  @Test
  void aSecretForAHeaderRevealsAFileWithoutItsTrailingLineBreak() throws Exception {
    Files.writeString(directory.resolve("token"), "s3cr3t\r\n");

    Secret secret = parse("file:token", Map.of()).requiring(Secret.Characters.HTTP_HEADER);

    assertThat(secret.reveal()).isEqualTo("s3cr3t");
  }

  @Test
  void aSecretForAHeaderWithAByteOrderMarkIsRefusedNamingTheSettingNotTheValue() throws Exception {
    Files.writeString(directory.resolve("token"), "\uFEFFs3cr3t\n");
    Secret secret = parse("file:token", Map.of()).requiring(Secret.Characters.HTTP_HEADER);

    assertThatThrownBy(secret::reveal)
        .isInstanceOf(SecretUnavailableException.class)
        .hasMessage(
            SETTING
                + ": the secret holds U+FEFF (a byte-order mark) at character 1, which an HTTP"
                + " header cannot carry; remove it");
    assertThat(secret.unavailability())
        .hasValueSatisfying(why -> assertThat(why).contains("U+FEFF"));
  }

  @Test
  void aSecretForAHeaderWithALineBreakInsideIsRefusedWithoutQuotingIt() {
    Secret secret =
        parse("env:TOKEN", Map.of("TOKEN", "s3c\nr3t")).requiring(Secret.Characters.HTTP_HEADER);

    assertThatThrownBy(secret::reveal)
        .isInstanceOf(SecretUnavailableException.class)
        .hasMessageContaining("U+000A (a line break) at character 4")
        .hasMessageNotContaining("s3c")
        .hasMessageNotContaining("r3t");
  }

  @Test
  void aSecretForAnyUseKeepsWhatAHeaderCouldNotCarry() {
    assertThat(parse("env:TOKEN", Map.of("TOKEN", "s3c\nr3t")).reveal()).isEqualTo("s3c\nr3t");
  }

  @Test
  void aFileIsReadAgainOnEveryReveal() throws Exception {
    Path file = directory.resolve("password");
    Files.writeString(file, "first");
    Secret secret = parse("file:" + file, Map.of());
    assertThat(secret.reveal()).isEqualTo("first");

    Files.writeString(file, "rotated");

    assertThat(secret.reveal()).isEqualTo("rotated");
  }

  @Test
  void aMissingFileIsReportedByPathAndSetting() {
    Secret secret = parse("file:/run/secrets/absent", Map.of());

    assertThatThrownBy(secret::reveal)
        .isInstanceOf(SecretUnavailableException.class)
        .hasMessage(SETTING + ": cannot read secret file /run/secrets/absent: no such file");
  }

  @Test
  void anythingElseIsALiteral() {
    assertThat(parse("s3cr3t", Map.of()).reveal()).isEqualTo("s3cr3t");
    assertThat(parse("s3cr3t", Map.of()).describe()).isEqualTo("literal");
    assertThat(parse("", Map.of()).reveal()).isEmpty();
  }

  @Test
  void theLiteralPrefixKeepsAValueThatLooksLikeASpec() {
    Secret secret = parse("literal:env:NOT_A_VARIABLE", Map.of("NOT_A_VARIABLE", "wrong"));

    assertThat(secret.kind()).isEqualTo(Secret.Kind.LITERAL);
    assertThat(secret.reveal()).isEqualTo("env:NOT_A_VARIABLE");
  }

  @Test
  void aSecretPrintsAsStars() {
    Secret secret = parse("s3cr3t", Map.of());

    assertThat(secret).hasToString("***");
    assertThat(String.valueOf(Map.of("k", secret))).doesNotContain("s3cr3t");
  }

  @Test
  void anEnvSpecWithoutANameIsRefused() {
    assertThatThrownBy(() -> parse("env:", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("env: needs an environment variable name");
  }

  @Test
  void aFileSpecWithoutAPathIsRefused() {
    assertThatThrownBy(() -> parse("file: ", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("file: needs a path, e.g. file:/run/secrets/kafka");
  }
}
