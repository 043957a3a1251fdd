package dfe.fetcher.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a server that knows the secret key recomputes from a request it received: the {@code
 * Authorization} it expects, from the scope and signed headers the request names, the headers and
 * body as they arrived. Written from the spec's steps for the simple requests the tests send (plain
 * paths, unencoded query values), apart from the signer under test.
 */
final class SigV4Check {

  private SigV4Check() {}

  static String expectedAuthorization(ApiServer.Seen seen, String secretAccessKey) {
    String authorization = seen.header("Authorization");
    String credential = part(authorization, "Credential=");
    String signedHeaders = part(authorization, "SignedHeaders=");
    String scope = credential.substring(credential.indexOf('/') + 1);
    String[] scopeParts = scope.split("/");
    String path = seen.pathAndQuery();
    String query = "";
    int q = path.indexOf('?');
    if (q >= 0) {
      String[] params = path.substring(q + 1).split("&");
      Arrays.sort(params);
      query = String.join("&", params);
      path = path.substring(0, q);
    }
    StringBuilder canonical = new StringBuilder();
    canonical
        .append(seen.method())
        .append('\n')
        .append(path)
        .append('\n')
        .append(query)
        .append('\n');
    for (String name : signedHeaders.split(";")) {
      canonical.append(name).append(':').append(seen.header(name).trim()).append('\n');
    }
    canonical
        .append('\n')
        .append(signedHeaders)
        .append('\n')
        .append(hex(sha256(seen.body().getBytes(StandardCharsets.UTF_8))));
    String stringToSign =
        "AWS4-HMAC-SHA256\n"
            + seen.header("X-Amz-Date")
            + "\n"
            + scope
            + "\n"
            + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    byte[] key = ("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8);
    for (String step : List.of(scopeParts[0], scopeParts[1], scopeParts[2], "aws4_request")) {
      key = hmac(key, step);
    }
    return "AWS4-HMAC-SHA256 Credential="
        + credential
        + ", SignedHeaders="
        + signedHeaders
        + ", Signature="
        + hex(hmac(key, stringToSign));
  }

  /** The signed header names of a request's {@code Authorization}. */
  static List<String> signedHeaders(ApiServer.Seen seen) {
    return new ArrayList<>(
        List.of(
            part(seen.header("Authorization"), "SignedHeaders=")
                .toLowerCase(Locale.ROOT)
                .split(";")));
  }

  private static String part(String authorization, String name) {
    int start = authorization.indexOf(name) + name.length();
    int end = authorization.indexOf(',', start);
    return authorization.substring(start, end < 0 ? authorization.length() : end);
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
