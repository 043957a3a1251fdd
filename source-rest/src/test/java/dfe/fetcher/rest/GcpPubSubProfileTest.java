package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped {@code gcp_pubsub} profile against a local server answering in Pub/Sub's documented
 * shapes ({@code subscriptions.pull}, {@code subscriptions.acknowledge}, Google's error object),
 * its token minted with a service account's JWT that the test's token endpoint verifies.
 */
class GcpPubSubProfileTest {

  private static final String PULL = "/v1/projects/acme-prod/subscriptions/audit-sub:pull";
  private static final String ACK = "/v1/projects/acme-prod/subscriptions/audit-sub:acknowledge";

  @TempDir Path directory;
  @AutoClose private final ApiServer server = ApiServer.started();
  private JwtTokenEndpoint tokens;
  private final RecordingSink sink = new RecordingSink();

  private RestConnection pubsub() throws Exception {
    return pubsub("");
  }

  private RestConnection pubsub(String units) throws Exception {
    KeyPair keys = TestKeys.rsa();
    tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.pubsub");
    server.on("/token", tokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sa.pem"));
    return RestFixture.connection(
        """
        topic: gcp-pubsub
        profile: gcp_pubsub
        vars: {pubsub_url: "%s", project_id: acme-prod, subscription_id: audit-sub, max_messages: "2"}
        auth: {mode: jwt_bearer, token_url: "%s/token", issuer: reader@acme-prod.iam.example,
               private_key: "file:%s"}
        %s
        """
            .formatted(server.url(), server.url(), key, units),
        Map.of());
  }

  private static String message(String ackId, String id, String data) {
    return "{\"ackId\":\""
        + ackId
        + "\",\"message\":{\"data\":\""
        + Base64.getEncoder().encodeToString(data.getBytes(StandardCharsets.UTF_8))
        + "\",\"attributes\":{\"origin\":\"audit\"},\"messageId\":\""
        + id
        + "\",\"publishTime\":\"2026-12-01T07:59:58.123Z\"},\"deliveryAttempt\":1}";
  }

  private List<String> bodiesSentTo(String path) {
    return server.requests().stream()
        .filter(seen -> seen.pathAndQuery().equals(path))
        .map(ApiServer.Seen::body)
        .toList();
  }

  @Test
  void pullsLandTheDecodedDataThenAcknowledgeAndAnEmptyPullEndsTheTick() throws Exception {
    server.on(
        PULL,
        ok(
            "{\"receivedMessages\":["
                + message("ack-1", "m1", "{\"event\":\"login\"}")
                + ","
                + message("ack-2", "m2", "{\"event\":\"logout\"}")
                + "]}"),
        ok("{}"));
    server.on(ACK, ok("{}"));

    RestFixture.read(pubsub(), "pull", Optional.empty(), Clock.systemUTC(), sink);

    assertThat(sink.records()).hasSize(2);
    assertThat(sink.records().get(0))
        .startsWith("{\"event\":\"login\",\"_dfe_fetcher_pubsub\":{")
        .contains("\"messageId\":\"m1\"", "\"ackId\":\"ack-1\"", "\"origin\":\"audit\"");
    assertThat(bodiesSentTo(PULL))
        .containsOnly("{\"maxMessages\":2,\"returnImmediately\":true}")
        .hasSize(2);
    assertThat(bodiesSentTo(ACK)).containsExactly("{\"ackIds\":[\"ack-1\",\"ack-2\"]}");
    assertThat(server.requests())
        .filteredOn(seen -> !seen.pathAndQuery().equals("/token"))
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer ya29.pubsub"));
    assertThat(tokens.verified()).isNotEmpty();
    assertThat(tokens.verified().get(0).getStringClaim("scope"))
        .isEqualTo("https://www.googleapis.com/auth/pubsub");
  }

  @Test
  void aForbiddenPullFailsWithGooglesMessageAndAcknowledgesNothing() throws Exception {
    server.on(
        PULL,
        json(
            403,
            "{\"error\":{\"code\":403,\"message\":\"User not authorized to perform this action.\","
                + "\"status\":\"PERMISSION_DENIED\"}}"));

    assertThatThrownBy(
            () -> RestFixture.read(pubsub(), "pull", Optional.empty(), Clock.systemUTC(), sink))
        .hasMessageContaining("403")
        .hasMessageContaining("User not authorized to perform this action.");
    assertThat(bodiesSentTo(ACK)).isEmpty();
    assertThat(bodiesSentTo(PULL)).hasSize(1);
  }

  @Test
  void aUnitPerSubscriptionPullsAndAcknowledgesOnItsOwnSubscription() throws Exception {
    String pull = "/v1/projects/acme-prod/subscriptions/dns-sub:pull";
    String ack = "/v1/projects/acme-prod/subscriptions/dns-sub:acknowledge";
    server.on(pull, ok("{\"receivedMessages\":[" + message("ack-9", "m9", "{}") + "]}"), ok("{}"));
    server.on(ack, ok("{}"));
    RestConnection connection =
        pubsub(
            "units: {audit: {endpoint: pull}, dns: {endpoint: pull, vars: {subscription_id:"
                + " dns-sub}}}");

    RestFixture.read(connection, "dns", Optional.empty(), Clock.systemUTC(), sink);

    assertThat(connection.units())
        .extracting(dfe.fetcher.source.SourceUnit::unit)
        .containsExactly("audit", "dns");
    assertThat(sink.records()).hasSize(1);
    assertThat(bodiesSentTo(pull)).hasSize(2);
    assertThat(bodiesSentTo(ack)).containsExactly("{\"ackIds\":[\"ack-9\"]}");
    assertThat(bodiesSentTo(PULL)).isEmpty();
  }
}
