package dfe.fetcher.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Duo's signature against the example its Admin API documentation gives (version 2), and version 5
 * against the canonical request written out here and signed with javax.crypto.
 */
class DuoSignatureTest {

  private static final String IKEY = "DIWJ8X6AEYOR5OMC6TQ1";
  private static final String SKEY = "Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep";
  private static final String DATE = "Tue, 21 Aug 2012 17:29:18 -0000";

  @Test
  void theDateIsRfc2822InUtc() {
    assertThat(DuoSignature.date(Instant.parse("2012-08-21T17:29:18Z"))).isEqualTo(DATE);
  }

  @Test
  void version2SignsTheDocumentedExampleAsDuoDocumentsIt() {
    String canonical =
        DuoSignature.canonical(
            2,
            DATE,
            "post",
            "API-xxxxxxxx.duosecurity.com",
            "/accounts/v1/account/list",
            "username=root&realname=First%20Last",
            new byte[0]);

    assertThat(canonical)
        .isEqualTo(
            DATE
                + "\nPOST\napi-xxxxxxxx.duosecurity.com\n/accounts/v1/account/list\n"
                + "realname=First%20Last&username=root");
    assertThat(DuoSignature.authorization(2, IKEY, SKEY, canonical))
        .isEqualTo(
            "Basic RElXSjhYNkFFWU9SNU9NQzZUUTE6MmQ5N2Q2MTY2MzE5NzgxYjVhM2EwN2FmMzlkMzY2ZjQ5MTIzNGVkYw==");
  }

  @Test
  void version5HashesTheBodyAndSignsWithHmacSha512() throws Exception {
    byte[] body = "{\"username\":\"root\"}".getBytes(StandardCharsets.UTF_8);
    String canonical =
        DuoSignature.canonical(
            5, DATE, "POST", "api-xxxxxxxx.duosecurity.com", "/admin/v2/users", null, body);

    String expectedCanonical =
        DATE
            + "\nPOST\napi-xxxxxxxx.duosecurity.com\n/admin/v2/users\n\n"
            + hex(MessageDigest.getInstance("SHA-512").digest(body))
            + "\n"
            + hex(MessageDigest.getInstance("SHA-512").digest(new byte[0]));
    assertThat(canonical).isEqualTo(expectedCanonical);
    Mac mac = Mac.getInstance("HmacSHA512");
    mac.init(new SecretKeySpec(SKEY.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
    String signature = hex(mac.doFinal(expectedCanonical.getBytes(StandardCharsets.UTF_8)));
    assertThat(DuoSignature.authorization(5, IKEY, SKEY, canonical))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((IKEY + ":" + signature).getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void parametersAreDecodedThenEncodedAsDuoDoesAndSortedByNameThenValue() {
    assertThat(DuoSignature.canonical(2, DATE, "GET", "h", "/p", "b=2&a=x+y&a=%7e/&c", new byte[0]))
        .endsWith("\na=x%2By&a=~%2F&b=2&c=");
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
