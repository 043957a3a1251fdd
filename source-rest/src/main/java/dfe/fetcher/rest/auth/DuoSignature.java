package dfe.fetcher.rest.auth;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Duo's request signature (Duo Admin/Auth API, "Authentication"): the canonical request is the date
 * (RFC 2822), the method upper case, the host lower case, the path and the parameters sorted and
 * URL-encoded, joined by newlines; version 5 adds the SHA-512 of the body and of the {@code X-Duo-}
 * headers (none here). HMAC-SHA1 (version 2) or HMAC-SHA512 (version 5) of it with the secret key,
 * in hex, is the password of HTTP Basic with the integration key as user. I/O-free and clock-free.
 */
final class DuoSignature {

  static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss '-0000'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private DuoSignature() {}

  /** The {@code Date} header's value for {@code at}. */
  static String date(Instant at) {
    return DATE.format(at);
  }

  /**
   * The canonical request.
   *
   * @param rawQuery the query as sent, or null; for version 2 a form body's parameters
   * @param body the body (version 5 only)
   */
  static String canonical(
      int version,
      String date,
      String method,
      String host,
      String path,
      String rawQuery,
      byte[] body) {
    List<String> lines = new ArrayList<>();
    lines.add(date);
    lines.add(method.toUpperCase(Locale.ROOT));
    lines.add(host.toLowerCase(Locale.ROOT));
    lines.add(path);
    lines.add(parameters(rawQuery));
    if (version == 5) {
      lines.add(sha512Hex(body));
      lines.add(sha512Hex(new byte[0]));
    }
    return String.join("\n", lines);
  }

  /** {@code Basic base64(ikey:hexsig)}. */
  static String authorization(
      int version, String integrationKey, String secretKey, String canonical) {
    String algorithm = version == 5 ? "HmacSHA512" : "HmacSHA1";
    String signature;
    try {
      Mac mac = Mac.getInstance(algorithm);
      mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), algorithm));
      signature = HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + algorithm, e);
    }
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((integrationKey + ":" + signature).getBytes(StandardCharsets.UTF_8));
  }

  /** Each {@code name=value} decoded, encoded again as Duo does, sorted, joined by {@code &}. */
  private static String parameters(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    List<String> pairs = new ArrayList<>();
    for (String param : rawQuery.split("&")) {
      if (param.isEmpty()) {
        continue;
      }
      int eq = param.indexOf('=');
      String name = eq < 0 ? param : param.substring(0, eq);
      String value = eq < 0 ? "" : param.substring(eq + 1);
      pairs.add(encode(decode(name)) + "=" + encode(decode(value)));
    }
    pairs.sort(null);
    return String.join("&", pairs);
  }

  /** Python's {@code urllib.parse.quote(text, '~')}, which Duo's clients use. */
  private static String encode(String text) {
    return SigV4Signer.encode(text);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String sha512Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-512", e);
    }
  }
}
