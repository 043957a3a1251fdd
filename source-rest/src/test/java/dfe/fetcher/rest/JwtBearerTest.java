package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.JWTClaimsSet;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jwt_bearer} (RFC 7523): the token endpoint verifies the assertion with the service
 * account's public key and reads its claims.
 */
class JwtBearerTest {

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path directory;
  private ApiServer server;
  private final MutableClock clock = new MutableClock(NOW);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(Path key, String more) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: jwt_bearer, token_url: "%s/token", issuer: reader@project.iam.example,
               scope: "https://www.googleapis.com/auth/devstorage.read_only",
               private_key: "file:%s"%s}
        profile:
          base_url: "%s"
          endpoints:
            - {unit: buckets, shape: dump, path: /b, rows: {decoder: json_array}}
        """
            .formatted(server.url(), key, more, server.url()));
  }

  @Test
  void theSignedAssertionIsExchangedForAToken() throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.token");
    server.on("/token", tokens.answer()).on("/b", ok("[{\"id\":1}]"));

    RecordingSink sink =
        RestFixture.read(
            connection(TestKeys.privateKeyPem(keys, directory.resolve("sa.pem")), ", key_id: k1"),
            "buckets",
            Optional.empty(),
            clock);

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(tokens.refusals).isEmpty();
    assertThat(tokens.forms.peek())
        .containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
    JWTClaimsSet claims = tokens.verified().get(0);
    assertThat(claims.getIssuer()).isEqualTo("reader@project.iam.example");
    assertThat(claims.getSubject()).isEqualTo("reader@project.iam.example");
    assertThat(claims.getAudience()).containsExactly(server.url() + "/token");
    assertThat(claims.getStringClaim("scope"))
        .isEqualTo("https://www.googleapis.com/auth/devstorage.read_only");
    assertThat(claims.getIssueTime()).isEqualTo(Date.from(NOW));
    assertThat(claims.getExpirationTime()).isEqualTo(Date.from(NOW.plusSeconds(3600)));
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer ya29.token");
  }

  @Test
  void aSubjectAndAnAudienceOfTheirOwnGoInTheClaims() throws Exception {
    KeyPair keys = TestKeys.ec();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "00Dxx!tok");
    server.on("/token", tokens.answer()).on("/b", ok("[]"));

    RestFixture.read(
        connection(
            TestKeys.privateKeyPem(keys, directory.resolve("ec.pem")),
            ", subject: ops@example.com, audience: https://login.salesforce.com"),
        "buckets",
        Optional.empty(),
        clock);

    JWTClaimsSet claims = tokens.verified().get(0);
    assertThat(claims.getSubject()).isEqualTo("ops@example.com");
    assertThat(claims.getAudience()).containsExactly("https://login.salesforce.com");
  }

  @Test
  void anAssertionSignedWithAnotherKeyIsRefusedAndTheFailureNamesTheSettings() throws Exception {
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(TestKeys.rsa().getPublic(), "assertion", "t");
    server.on("/token", tokens.answer());

    RecordingSink sink =
        RestFixture.read(
            connection(TestKeys.privateKeyPem(TestKeys.rsa(), directory.resolve("x.pem")), ""),
            "buckets",
            Optional.empty(),
            clock);

    assertThat(tokens.refusals).containsExactly("signature");
    assertThat(sink.abortReason().orElseThrow())
        .contains("lab.buckets")
        .contains("answered 401")
        .contains("private_key (sources.rest.lab.auth)");
  }

  @Test
  void aPkcs1KeyFailsSayingHowToConvertIt() throws Exception {
    Path key = directory.resolve("rsa.pem");
    java.nio.file.Files.writeString(
        key, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");

    RecordingSink sink = RestFixture.read(connection(key, ""), "buckets", Optional.empty(), clock);

    assertThat(sink.abortReason().orElseThrow())
        .contains("sources.rest.lab.auth.private_key: the private key is PKCS#1")
        .contains("openssl pkcs8 -topk8");
    assertThat(server.requests()).isEmpty();
  }
}
