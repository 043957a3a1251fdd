package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code signature} with the Duo preset end to end: the server recomputes the signature from the
 * Date, method, Host, path, query and body it received.
 */
class SignatureTest {

  private static final String SKEY = "Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep";
  private ApiServer server;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection connection(int version) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: signature, preset: duo, integration_key: DIWJ8X6AEYOR5OMC6TQ1,
               secret_key: env:DUO_SKEY, signature_version: %d}
        profile:
          base_url: "%s"
          endpoints:
            - {unit: users, shape: dump, path: /admin/v1/users, query: {username: root, limit: "10"},
               rows: {decoder: json_array}}
            - {unit: search, shape: dump, method: POST, path: /admin/v2/search, body: {q: "x"},
               rows: {decoder: json_array}}
        """
            .formatted(version, server.url()),
        Map.of("DUO_SKEY", SKEY));
  }

  @Test
  void version2SignsAGetSoTheServerRecomputesIt() throws Exception {
    server.on("/admin/v1/users", ok("[]"));

    RecordingSink sink = RestFixture.read(connection(2), "users", Optional.empty(), clock);

    assertThat(sink.shape()).containsExactly("begin", "end");
    ApiServer.Seen seen = server.requests().get(0);
    assertThat(seen.header("Date")).isEqualTo("Sun, 01 Mar 2026 10:00:00 -0000");
    assertThat(seen.header("Authorization")).isEqualTo(expected(seen, 2));
  }

  @Test
  void version5SignsAJsonBodySoTheServerRecomputesIt() throws Exception {
    server.on("/admin/v2/search", ok("[]"));

    RestFixture.read(connection(5), "search", Optional.empty(), clock);

    ApiServer.Seen seen = server.requests().get(0);
    assertThat(seen.body()).isEqualTo("{\"q\":\"x\"}");
    assertThat(seen.header("Authorization")).isEqualTo(expected(seen, 5));
  }

  @Test
  void version2RefusesAJsonBodyNamingTheSetting() throws Exception {
    RecordingSink sink = RestFixture.read(connection(2), "search", Optional.empty(), clock);

    assertThat(sink.abortReason().orElseThrow())
        .contains("lab.search")
        .contains("sources.rest.lab.auth.signature_version");
    assertThat(server.requests()).isEmpty();
  }

  /** Duo's canonical request rebuilt from what the server received, signed here. */
  static String expected(ApiServer.Seen seen, int version) throws Exception {
    String path = seen.pathAndQuery();
    String query = "";
    int q = path.indexOf('?');
    if (q >= 0) {
      String[] params = path.substring(q + 1).split("&");
      Arrays.sort(params);
      query = String.join("&", params);
      path = path.substring(0, q);
    }
    String canonical =
        String.join("\n", seen.header("Date"), seen.method(), seen.header("Host"), path, query);
    String algorithm = "HmacSHA1";
    if (version == 5) {
      MessageDigest sha512 = MessageDigest.getInstance("SHA-512");
      canonical +=
          "\n"
              + HexFormat.of()
                  .formatHex(sha512.digest(seen.body().getBytes(StandardCharsets.UTF_8)))
              + "\n"
              + HexFormat.of().formatHex(sha512.digest(new byte[0]));
      algorithm = "HmacSHA512";
    }
    Mac mac = Mac.getInstance(algorithm);
    mac.init(new SecretKeySpec(SKEY.getBytes(StandardCharsets.UTF_8), algorithm));
    String signature =
        HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
    return "Basic "
        + Base64.getEncoder()
            .encodeToString(("DIWJ8X6AEYOR5OMC6TQ1:" + signature).getBytes(StandardCharsets.UTF_8));
  }
}
