package dfe.fetcher.rest.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 (the "Signature Version 4 signing process" of the AWS General Reference)
 * for one region and service: the canonical request, the string to sign, the derived signing key
 * and the {@code Authorization} header. I/O-free and clock-free: the caller says when.
 *
 * <p>Paths are URI-encoded twice for every service but S3, as the spec says: the path as sent is
 * already encoded once, so its escapes are encoded again; S3's path is its object key, encoded
 * once.
 */
record SigV4Signer(String region, String service) {

  static final String ALGORITHM = "AWS4-HMAC-SHA256";
  static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT).withZone(ZoneOffset.UTC);

  SigV4Signer {
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(service, "service");
  }

  /** The parts of a signature; {@link #authorization} is the header's value. */
  record Signature(
      String canonicalRequest, String stringToSign, String signedHeaders, String authorization) {
    @Override
    public String toString() {
      return "Signature[" + signedHeaders + "]";
    }
  }

  /**
   * Signs a request.
   *
   * @param rawPath the path as sent (percent-encoded), empty for {@code /}
   * @param rawQuery the query as sent, or null
   * @param headers every header to sign, {@code host} and {@code x-amz-date} among them; names in
   *     any case
   * @param payloadHash the hex SHA-256 of the body ({@link #sha256Hex})
   */
  Signature sign(
      String method,
      String rawPath,
      String rawQuery,
      Map<String, List<String>> headers,
      String payloadHash,
      Instant at,
      AwsKeys keys) {
    TreeMap<String, String> canonicalHeaders = new TreeMap<>();
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      String value =
          header.getValue().stream().map(SigV4Signer::trimmed).collect(Collectors.joining(","));
      canonicalHeaders.merge(name, value, (a, b) -> a + "," + b);
    }
    String signedHeaders = String.join(";", canonicalHeaders.keySet());
    StringBuilder canonical = new StringBuilder();
    canonical.append(method.toUpperCase(Locale.ROOT)).append('\n');
    canonical.append(canonicalPath(rawPath)).append('\n');
    canonical.append(canonicalQuery(rawQuery)).append('\n');
    canonicalHeaders.forEach(
        (name, value) -> canonical.append(name).append(':').append(value).append('\n'));
    canonical.append('\n').append(signedHeaders).append('\n').append(payloadHash);
    String canonicalRequest = canonical.toString();
    String scope = DATE.format(at) + "/" + region + "/" + service + "/aws4_request";
    String stringToSign =
        ALGORITHM
            + "\n"
            + AMZ_DATE.format(at)
            + "\n"
            + scope
            + "\n"
            + sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8));
    byte[] key =
        hmac(("AWS4" + keys.secretAccessKey()).getBytes(StandardCharsets.UTF_8), DATE.format(at));
    key = hmac(key, region);
    key = hmac(key, service);
    key = hmac(key, "aws4_request");
    String signature = HexFormat.of().formatHex(hmac(key, stringToSign));
    String authorization =
        ALGORITHM
            + " Credential="
            + keys.accessKeyId()
            + "/"
            + scope
            + ", SignedHeaders="
            + signedHeaders
            + ", Signature="
            + signature;
    return new Signature(canonicalRequest, stringToSign, signedHeaders, authorization);
  }

  private String canonicalPath(String rawPath) {
    if (rawPath == null || rawPath.isEmpty()) {
      return "/";
    }
    boolean s3 = service.equals("s3");
    List<String> segments = new ArrayList<>();
    String[] parts = rawPath.split("/", -1);
    for (int i = 1; i < parts.length; i++) {
      String segment = parts[i];
      if (!s3 && segment.equals(".")) {
        continue;
      }
      if (!s3 && segment.equals("..")) {
        if (!segments.isEmpty()) {
          segments.remove(segments.size() - 1);
        }
        continue;
      }
      segments.add(s3 ? encode(decode(segment)) : encode(segment));
    }
    return "/" + String.join("/", segments);
  }

  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    List<String[]> params = new ArrayList<>();
    for (String param : rawQuery.split("&")) {
      if (param.isEmpty()) {
        continue;
      }
      int eq = param.indexOf('=');
      String name = eq < 0 ? param : param.substring(0, eq);
      String value = eq < 0 ? "" : param.substring(eq + 1);
      params.add(new String[] {encode(decode(name)), encode(decode(value))});
    }
    params.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    return params.stream().map(p -> p[0] + "=" + p[1]).collect(Collectors.joining("&"));
  }

  /** A header value without surrounding spaces, each run of spaces inside made one. */
  private static String trimmed(String value) {
    return value.trim().replaceAll("\\s+", " ");
  }

  /** AWS's URI encoding: every byte but the unreserved characters as {@code %XX}, upper case. */
  static String encode(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xFF));
      }
    }
    return out.toString();
  }

  /** Percent-escapes decoded; a {@code %} not followed by two hex digits stays as it is. */
  private static String decode(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int hi = i + 2 < bytes.length ? Character.digit(bytes[i + 1], 16) : -1;
      int lo = i + 2 < bytes.length ? Character.digit(bytes[i + 2], 16) : -1;
      if (bytes[i] == '%' && hi >= 0 && lo >= 0) {
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        out.write(bytes[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }
}
