package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sigv4} end to end: a local server recomputes each signature from the request it received,
 * STS AssumeRole is asked once for keys kept until shortly before they expire, and no key reaches a
 * log line or an error.
 */
class SigV4Test {

  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private static final String SESSION = "FwoGZXIvYXdzEXAMPLE-session";
  private static final String TEMP_SECRET = "tEmPsEcReT/EXAMPLE+KEY";
  private static final String TEMP_TOKEN = "IQoJb3JpZ2luX2VjEXAMPLE-temp";
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private ApiServer server;
  private CapturedLogs logs;
  private final MutableClock clock = new MutableClock(NOW);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs = new CapturedLogs();
  }

  @AfterEach
  void stop() {
    logs.close();
    server.close();
  }

  private RestConnection connection(String auth) {
    return RestFixture.connection(
        """
        topic: lab
        auth: %s
        profile:
          base_url: "%s"
          headers: {X-Api-Version: "2"}
          endpoints:
            - {unit: assets, shape: dump, path: /assets, query: {b: "2", a: "1"},
               rows: {decoder: json_array}}
            - {unit: search, shape: dump, method: POST, path: /search, body: {q: "x"},
               rows: {decoder: json_array}}
        """
            .formatted(auth, server.url()),
        Map.of("AWS_KEY", "AKIDEXAMPLE", "AWS_SECRET", SECRET, "AWS_SESSION", SESSION));
  }

  private static String stsAnswer(String expiration) {
    return """
        <AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
          <AssumeRoleResult>
            <Credentials>
              <AccessKeyId>ASIATEMPEXAMPLE</AccessKeyId>
              <SecretAccessKey>%s</SecretAccessKey>
              <SessionToken>%s</SessionToken>
              <Expiration>%s</Expiration>
            </Credentials>
          </AssumeRoleResult>
        </AssumeRoleResponse>
        """
        .formatted(TEMP_SECRET, TEMP_TOKEN, expiration);
  }

  private void read(OpenConnection open, String unit) throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source(unit).read(Optional.empty(), sink, new Cancellation());
    assertThat(sink.shape()).containsExactly("begin", "end");
  }

  @Test
  void aGetAndAPostAreSignedSoTheServerRecomputesTheSameSignature() throws Exception {
    server.on("/assets", ok("[]")).on("/search", ok("[]"));
    RestConnection connection =
        connection(
            "{mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key: env:AWS_SECRET,"
                + " session_token: env:AWS_SESSION, region: eu-west-1, service: execute-api}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      read(open, "assets");
      read(open, "search");
    }

    assertThat(server.requests()).hasSize(2);
    for (ApiServer.Seen seen : server.requests()) {
      assertThat(seen.header("Authorization"))
          .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260301/eu-west-1/execute-api/")
          .isEqualTo(SigV4Check.expectedAuthorization(seen, SECRET));
      assertThat(seen.header("X-Amz-Date")).isEqualTo("20260301T100000Z");
      assertThat(seen.header("X-Amz-Security-Token")).isEqualTo(SESSION);
      assertThat(SigV4Check.signedHeaders(seen))
          .contains("host", "x-amz-date", "x-amz-security-token", "x-api-version");
    }
    assertThat(SigV4Check.signedHeaders(server.requests().get(1))).contains("content-type");
  }

  @Test
  void assumeRoleAsksStsOnceAndAgainOnlyWhenTheKeysAreAboutToExpire() throws Exception {
    server
        .on("/assets", ok("[]"))
        .on("/sts", ApiServer.send(200, "text/xml", stsAnswer("2026-03-01T11:00:00Z").getBytes()));
    RestConnection connection =
        connection(
            ("{mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key: env:AWS_SECRET,"
                    + " region: eu-west-1, service: execute-api,"
                    + " role_arn: 'arn:aws:iam::123456789012:role/reader',"
                    + " sts_endpoint: '%s/sts'}")
                .formatted(server.url()));

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      read(open, "assets");
      read(open, "assets");
      clock.advance(Duration.ofMinutes(59).plusSeconds(40));
      read(open, "assets");
    }

    assertThat(server.paths())
        .containsExactly("/sts", "/assets?b=2&a=1", "/assets?b=2&a=1", "/sts", "/assets?b=2&a=1");
    ApiServer.Seen sts = server.requests().get(0);
    assertThat(sts.method()).isEqualTo("POST");
    assertThat(sts.body())
        .contains("Action=AssumeRole")
        .contains("RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Freader")
        .contains("Version=2011-06-15");
    assertThat(sts.header("Authorization"))
        .contains("Credential=AKIDEXAMPLE/20260301/eu-west-1/sts/aws4_request")
        .isEqualTo(SigV4Check.expectedAuthorization(sts, SECRET));
    ApiServer.Seen api = server.requests().get(1);
    assertThat(api.header("Authorization"))
        .contains("Credential=ASIATEMPEXAMPLE/20260301/eu-west-1/execute-api/aws4_request")
        .isEqualTo(SigV4Check.expectedAuthorization(api, TEMP_SECRET));
    assertThat(api.header("X-Amz-Security-Token")).isEqualTo(TEMP_TOKEN);
  }

  @Test
  void aRefusedAssumeRoleNamesTheStsEndpointAndTheSettingsNeverAKey() throws Exception {
    server.on("/sts", ApiServer.send(403, "text/xml", "<Error>denied</Error>".getBytes()));
    RestConnection connection =
        connection(
            ("{mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key: env:AWS_SECRET,"
                    + " session_token: env:AWS_SESSION, region: eu-west-1, service: execute-api,"
                    + " role_arn: 'arn:aws:iam::123456789012:role/reader',"
                    + " sts_endpoint: '%s/sts'}")
                .formatted(server.url()));

    RecordingSink sink = RestFixture.read(connection, "assets", Optional.empty(), clock);

    String reason = sink.abortReason().orElseThrow();
    assertThat(reason)
        .contains("lab.assets")
        .contains("the STS endpoint " + server.url() + "/sts answered 403")
        .contains("sources.rest.lab.auth");
    for (String text : concat(List.of(reason), logs.texts())) {
      assertThat(text).doesNotContain(SECRET).doesNotContain(SESSION).doesNotContain("AKIDEXAMPLE");
    }
    assertThat(logs.texts()).isNotEmpty();
  }

  @Test
  void aMissingRegionOrServiceIsReportedAtItsPath() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: sigv4, access_key_id: AKID, secret_access_key: s, region: EU West}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """))
        .anySatisfy(
            p -> assertThat(p).contains("sources.rest.lab.auth.region").contains("AWS region"))
        .anySatisfy(
            p -> assertThat(p).contains("sources.rest.lab.auth.service").contains("is required"));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
