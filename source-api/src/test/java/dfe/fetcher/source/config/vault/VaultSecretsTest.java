package dfe.fetcher.source.config.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vault:} secrets against a local server answering in KV version 2's shapes. */
class VaultSecretsTest {

  private static final String TOKEN = "hvs.CAESIJ-token-never-printed";
  private static final String PASSWORD = "p4ss-value-never-printed";
  private static final String KAFKA = "/v1/secret/data/dfe/kafka";
  private static final String LOGIN = "/v1/auth/approle/login";
  private static final String SETTING = "output.kafka.properties.sasl.jaas.config";
  private static final String SPEC = "vault:secret/dfe/kafka#password";

  @TempDir Path directory;

  private FakeVault vault;
  private final MovableClock clock = new MovableClock();
  private final List<String> messages = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vault = FakeVault.http();
    vault.secret(KAFKA, "{\"password\":\"" + PASSWORD + "\",\"user\":\"fetcher\",\"port\":9093}");
  }

  @AfterEach
  void stop() {
    vault.close();
    // Whatever failed in a test, its message named neither the token nor a value.
    assertThat(String.join("\n", messages)).doesNotContain(TOKEN).doesNotContain(PASSWORD);
  }

  @Test
  void aTokenReadsTheFieldOfAKvVersion2Secret() {
    Map<String, String> environment =
        Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN, "VAULT_NAMESPACE", "team-a");

    assertThat(secret(SPEC, environment).reveal()).isEqualTo(PASSWORD);
    assertThat(secret("vault:secret/dfe/kafka#port", environment).reveal()).isEqualTo("9093");
    assertThat(vault.requests)
        .first()
        .satisfies(
            request -> {
              assertThat(request.method()).isEqualTo("GET");
              assertThat(request.path()).isEqualTo(KAFKA);
              assertThat(request.token()).isEqualTo(TOKEN);
              assertThat(request.namespace()).isEqualTo("team-a");
            });
  }

  @Test
  void aVaultSecretPrintsAsItsSpecAndNeverAsItsValue() {
    Secret secret = secret(SPEC, Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN));

    assertThat(secret.kind()).isEqualTo(Secret.Kind.VAULT);
    assertThat(secret.describe()).isEqualTo("vault:secret/dfe/kafka#password");
    assertThat(secret).hasToString("***");
    assertThat(secret.unavailability()).isEmpty();
  }

  @Test
  void aTokenFileIsReadWhenNoTokenVariableIsSet() throws Exception {
    Path tokenFile = Files.writeString(directory.resolve("token"), TOKEN + "\n");

    String value =
        secret(
                SPEC,
                Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN_FILE", tokenFile.toString()))
            .reveal();

    assertThat(value).isEqualTo(PASSWORD);
    assertThat(vault.requests.get(0).token()).isEqualTo(TOKEN);
  }

  @Test
  void theFieldsOfOneSecretShareOneReadWhileTheTimeToLiveLastsAndAreReadAgainAfter() {
    VaultSecrets secrets = secrets(Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN));
    VaultReference password = VaultReference.parse("secret/dfe/kafka#password");
    VaultReference user = VaultReference.parse("secret/dfe/kafka#user");

    assertThat(secrets.reveal(password, SETTING)).isEqualTo(PASSWORD);
    assertThat(secrets.reveal(user, SETTING)).isEqualTo("fetcher");
    clock.advance(Duration.ofSeconds(59));
    assertThat(secrets.reveal(password, SETTING)).isEqualTo(PASSWORD);
    assertThat(vault.readsOf(KAFKA)).as("within the TTL").isEqualTo(1);

    vault.secret(KAFKA, "{\"password\":\"rotated\"}");
    clock.advance(Duration.ofSeconds(1));
    assertThat(secrets.reveal(password, SETTING)).isEqualTo("rotated");
    assertThat(vault.readsOf(KAFKA)).isEqualTo(2);
  }

  @Test
  void aTimeToLiveOfZeroReadsOnEveryUse() {
    VaultSecrets secrets =
        new VaultSecrets(
            Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN), Duration.ZERO, clock);
    VaultReference password = VaultReference.parse("secret/dfe/kafka#password");

    secrets.reveal(password, SETTING);
    secrets.reveal(password, SETTING);

    assertThat(vault.readsOf(KAFKA)).isEqualTo(2);
  }

  @Test
  void aLeaseTheServerGivesIsKeptInsteadOfTheTimeToLive() {
    vault.answer(
        KAFKA,
        200,
        "{\"lease_duration\":10,\"data\":{\"data\":{\"password\":\"leased\"},\"metadata\":{}}}");
    VaultSecrets secrets = secrets(Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN));
    VaultReference password = VaultReference.parse("secret/dfe/kafka#password");

    secrets.reveal(password, SETTING);
    clock.advance(Duration.ofSeconds(9));
    secrets.reveal(password, SETTING);
    assertThat(vault.readsOf(KAFKA)).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    secrets.reveal(password, SETTING);
    assertThat(vault.readsOf(KAFKA)).isEqualTo(2);
  }

  @Test
  void appRoleLogsInOnceAndLogsInAgainBeforeItsTokensLeaseEnds() throws Exception {
    vault.answer(
        LOGIN,
        200,
        "{\"auth\":{\"client_token\":\""
            + TOKEN
            + "\",\"lease_duration\":100,\"renewable\":true}}");
    Path secretIdFile = Files.writeString(directory.resolve("secret-id"), "the-secret-id\n");
    VaultSecrets secrets =
        new VaultSecrets(
            Map.of(
                "VAULT_ADDR",
                vault.address(),
                "VAULT_ROLE_ID",
                "the-role-id",
                "VAULT_SECRET_ID_FILE",
                secretIdFile.toString()),
            Duration.ZERO,
            clock);
    VaultReference password = VaultReference.parse("secret/dfe/kafka#password");

    assertThat(secrets.reveal(password, SETTING)).isEqualTo(PASSWORD);
    secrets.reveal(password, SETTING);
    assertThat(vault.readsOf(LOGIN)).isEqualTo(1);
    assertThat(vault.requests.get(0).method()).isEqualTo("POST");
    assertThat(vault.requests.get(0).body())
        .isEqualTo("{\"role_id\":\"the-role-id\",\"secret_id\":\"the-secret-id\"}");
    assertThat(vault.requests.get(1).token()).isEqualTo(TOKEN);

    clock.advance(Duration.ofSeconds(90));
    secrets.reveal(password, SETTING);
    assertThat(vault.readsOf(LOGIN)).as("renewed at 90% of the lease").isEqualTo(2);
  }

  @Test
  void aForbiddenReadWithAnAppRoleTokenLogsInAgainOnce() {
    vault.answer(
        LOGIN, 200, "{\"auth\":{\"client_token\":\"" + TOKEN + "\",\"lease_duration\":0}}");
    vault.answerOnce(KAFKA, 403, "{\"errors\":[\"permission denied\"]}");
    VaultSecrets secrets =
        secrets(Map.of("VAULT_ADDR", vault.address(), "VAULT_ROLE_ID", "the-role-id"));

    assertThat(secrets.reveal(VaultReference.parse("secret/dfe/kafka#password"), SETTING))
        .isEqualTo(PASSWORD);
    assertThat(vault.readsOf(LOGIN)).isEqualTo(2);
    assertThat(vault.requests.get(0).body()).isEqualTo("{\"role_id\":\"the-role-id\"}");
  }

  @Test
  void aRefusedAppRoleLoginNamesTheLoginNotTheCredentials() {
    vault.answer(LOGIN, 400, "{\"errors\":[\"invalid role or secret ID\"]}");
    Map<String, String> environment =
        Map.of("VAULT_ADDR", vault.address(), "VAULT_ROLE_ID", "role-x", "VAULT_SECRET_ID", TOKEN);

    assertThat(failure(SPEC, environment))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/kafka#password: the AppRole login at "
                + vault.address()
                + LOGIN
                + " answered 400 (invalid role or secret ID); check the request (AppRole role_id"
                + " and secret_id, the mount)");
  }

  @Test
  void aServerThatQuotesTheTokenInItsErrorsHasItMasked() {
    vault.answer(KAFKA, 403, "{\"errors\":[\"token " + TOKEN + " is not valid\"]}");

    assertThat(failure(SPEC, tokenEnvironment())).contains("(token *** is not valid)");
  }

  @Test
  void aSealedServerIsAClearErrorNamingTheSpec() {
    vault.answer(KAFKA, 503, "{\"errors\":[\"Vault is sealed\"]}");

    assertThat(failure(SPEC, tokenEnvironment()))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/kafka#password: reading secret/dfe/kafka at "
                + vault.address()
                + KAFKA
                + " answered 503 (Vault is sealed); the server is sealed: unseal it");
  }

  @Test
  void aForbiddenPathIsAClearErrorNamingTheSpec() {
    vault.answer(KAFKA, 403, "{\"errors\":[\"permission denied\"]}");

    assertThat(failure(SPEC, tokenEnvironment()))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/kafka#password: reading secret/dfe/kafka at "
                + vault.address()
                + KAFKA
                + " answered 403 (permission denied); check the token's or AppRole's policy for"
                + " this path");
  }

  @Test
  void aMissingPathIsAClearErrorNamingTheSpec() {
    assertThat(failure("vault:secret/dfe/nothing#password", tokenEnvironment()))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/nothing#password: reading secret/dfe/nothing at "
                + vault.address()
                + "/v1/secret/data/dfe/nothing answered 404; no such secret (or no such mount):"
                + " check the spec");
  }

  @Test
  void aMissingFieldNamesTheFieldsTheSecretHasButNoValue() {
    assertThat(failure("vault:secret/dfe/kafka#pasword", tokenEnvironment()))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/kafka#pasword: the secret secret/dfe/kafka has no field"
                + " 'pasword' (it has password, port, user)");
  }

  @Test
  void aDeletedLatestVersionIsToldApartFromAMissingField() {
    vault.answer(
        KAFKA, 404, "{\"data\":{\"data\":null,\"metadata\":{\"deletion_time\":\"2026-05-01\"}}}");

    assertThat(failure(SPEC, tokenEnvironment())).contains("answered 404");
  }

  @Test
  void withoutAnAddressOrCredentialsTheErrorSaysWhatToSet() {
    assertThat(failure(SPEC, Map.of("VAULT_TOKEN", TOKEN)))
        .isEqualTo(
            SETTING
                + ": vault:secret/dfe/kafka#password: VAULT_ADDR is not set (the Vault server,"
                + " e.g. https://vault.example:8200)");
    assertThat(failure(SPEC, Map.of("VAULT_ADDR", vault.address())))
        .startsWith(SETTING + ": vault:secret/dfe/kafka#password: no Vault credentials: set");
  }

  @Test
  void anUnreachableServerNamesTheRequestButNotTheToken() throws Exception {
    String address = vault.address();
    vault.close();

    assertThat(failure(SPEC, Map.of("VAULT_ADDR", address, "VAULT_TOKEN", TOKEN)))
        .startsWith(
            SETTING + ": vault:secret/dfe/kafka#password: GET " + address + KAFKA + " failed: ");
  }

  @Test
  void aSpecWithoutMountPathOrFieldIsRefusedWhenParsed() {
    for (String spec : List.of("vault:secret#password", "vault:secret/dfe/kafka", "vault:x/y#")) {
      assertThatThrownBy(() -> secret(spec, tokenEnvironment()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("vault: needs");
    }
  }

  @Test
  void anHttpsServerIsTrustedThroughTheCaBundleInVaultCacert() throws Exception {
    Path keystore = directory.resolve("vault.p12");
    Path caFile = directory.resolve("ca.pem");
    keytool(
        "-genkeypair",
        "-alias",
        "vault",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass",
        "changeit",
        "-keypass",
        "changeit");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "vault",
        "-keystore",
        keystore.toString(),
        "-storepass",
        "changeit",
        "-file",
        caFile.toString());

    try (FakeVault tls = FakeVault.https(serverContext(keystore))) {
      tls.secret(KAFKA, "{\"password\":\"" + PASSWORD + "\"}");
      Map<String, String> environment = new HashMap<>();
      environment.put("VAULT_ADDR", tls.address());
      environment.put("VAULT_TOKEN", TOKEN);

      assertThat(failure(SPEC, environment))
          .as("without the CA bundle the server is not trusted")
          .startsWith(SETTING + ": vault:secret/dfe/kafka#password: GET " + tls.address());

      environment.put("VAULT_CACERT", caFile.toString());
      assertThat(secret(SPEC, environment).reveal()).isEqualTo(PASSWORD);
    }
  }

  @Test
  void aCaBundleThatIsNotPemIsNamed() throws Exception {
    Path caFile = Files.writeString(directory.resolve("ca.pem"), "not a certificate");

    assertThat(
            failure(
                SPEC,
                Map.of(
                    "VAULT_ADDR", vault.address(),
                    "VAULT_TOKEN", TOKEN,
                    "VAULT_CACERT", caFile.toString())))
        .startsWith(
            SETTING + ": vault:secret/dfe/kafka#password: VAULT_CACERT " + caFile + " is not");
  }

  private Map<String, String> tokenEnvironment() {
    return Map.of("VAULT_ADDR", vault.address(), "VAULT_TOKEN", TOKEN);
  }

  private VaultSecrets secrets(Map<String, String> environment) {
    return new VaultSecrets(environment, Duration.ofSeconds(60), clock);
  }

  private Secret secret(String spec, Map<String, String> environment) {
    return Secret.parse(spec, SETTING, environment, directory, secrets(environment));
  }

  /** The message of the failed reveal, kept so {@link #stop} checks it holds no secret. */
  private String failure(String spec, Map<String, String> environment) {
    Secret secret = secret(spec, environment);
    try {
      secret.reveal();
    } catch (SecretUnavailableException e) {
      messages.add(e.getMessage());
      return e.getMessage();
    }
    throw new AssertionError("the reveal of " + spec + " did not fail");
  }

  private static void keytool(String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }

  private static SSLContext serverContext(Path keystore) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  /** A clock a test moves by hand. */
  private static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-05-01T12:00:00Z");

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
