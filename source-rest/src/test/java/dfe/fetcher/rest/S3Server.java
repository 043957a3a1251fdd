package dfe.fetcher.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A local S3 for tests, on 127.0.0.1, path-style: {@code GET /{bucket}?list-type=2} answers
 * ListObjectsV2 as AWS documents it (keys in order after {@code prefix}, at most {@code max-keys}
 * and at most {@link #pageSize} a page, {@code IsTruncated} with an opaque {@code
 * NextContinuationToken}), {@code GET /{bucket}/{key}} the object's bytes (GetObject). Every
 * request must carry a valid SigV4 signature (service {@code s3}, the test's region), recomputed
 * here from the request as it arrived, with the secret key, written from AWS's "Create a canonical
 * request" steps and apart from the product's signer; a bad one gets S3's 403 {@code
 * SignatureDoesNotMatch} (which, as S3's does, names the access key id and the string to sign). An
 * unknown bucket answers {@code NoSuchBucket}, a denied one {@code AccessDenied}, a missing key
 * {@code NoSuchKey}.
 */
final class S3Server implements AutoCloseable {

  /** An object: its bytes and when it was last modified. */
  record StoredObject(byte[] bytes, Instant lastModified) {}

  private final HttpServer server;
  private final String accessKeyId;
  private final String secretAccessKey;
  private final String region;
  private final Map<String, NavigableMap<String, StoredObject>> buckets = new ConcurrentHashMap<>();
  private final Set<String> denied = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> failures = new ConcurrentHashMap<>();
  private final Map<String, Integer> slowDowns = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> refused = new ConcurrentLinkedQueue<>();
  private volatile int pageSize = 1000;

  S3Server(String accessKeyId, String secretAccessKey, String region) throws IOException {
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
    this.region = region;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  S3Server bucket(String name) {
    buckets.computeIfAbsent(name, n -> new ConcurrentSkipListMap<>());
    return this;
  }

  S3Server put(String bucket, String key, byte[] bytes, Instant lastModified) {
    bucket(bucket);
    buckets.get(bucket).put(key, new StoredObject(bytes, lastModified));
    return this;
  }

  S3Server put(String bucket, String key, String text, Instant lastModified) {
    return put(bucket, key, text.getBytes(StandardCharsets.UTF_8), lastModified);
  }

  /** Answers the next {@code times} GetObjects of {@code bucket/key} with 500 InternalError. */
  S3Server failNext(String bucket, String key, int times) {
    failures.put("/" + bucket + "/" + key, times);
    return this;
  }

  /**
   * Answers the next {@code times} GetObjects of {@code bucket/key} with 503 SlowDown, S3's
   * throttle ("Please reduce your request rate").
   */
  S3Server slowDownNext(String bucket, String key, int times) {
    slowDowns.put("/" + bucket + "/" + key, times);
    return this;
  }

  S3Server deny(String bucket) {
    denied.add(bucket);
    return this;
  }

  /** The most keys one page lists, whatever {@code max-keys} asks. */
  S3Server pageSize(int keys) {
    pageSize = keys;
    return this;
  }

  /** Each request as it arrived: method, raw path and query. */
  List<String> requests() {
    return Collections.unmodifiableList(new ArrayList<>(seen));
  }

  /** The requests refused for their signature. */
  List<String> refused() {
    return Collections.unmodifiableList(new ArrayList<>(refused));
  }

  /** The GetObject requests seen, as {@code bucket/key} decoded. */
  List<String> objectsRead() {
    return requests().stream()
        .filter(request -> !request.contains("list-type="))
        .map(request -> decode(request.substring("GET /".length())))
        .toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String rawPath = exchange.getRequestURI().getRawPath();
      String rawQuery = exchange.getRequestURI().getRawQuery();
      seen.add(
          exchange.getRequestMethod() + " " + rawPath + (rawQuery == null ? "" : "?" + rawQuery));
      String problem = signatureProblem(exchange, rawPath, rawQuery, body);
      if (problem != null) {
        refused.add(rawPath + ": " + problem);
        error(
            exchange,
            403,
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided.",
            "<AWSAccessKeyId>"
                + accessKeyId
                + "</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256 "
                + problem.replace("<", "")
                + "</StringToSign>");
        return;
      }
      String path = decode(rawPath);
      int slash = path.indexOf('/', 1);
      String bucket = slash < 0 ? path.substring(1) : path.substring(1, slash);
      NavigableMap<String, StoredObject> objects = buckets.get(bucket);
      if (objects == null) {
        error(exchange, 404, "NoSuchBucket", "The specified bucket does not exist", "");
        return;
      }
      if (denied.contains(bucket)) {
        error(exchange, 403, "AccessDenied", "Access Denied", "");
        return;
      }
      if (slash < 0 || slash == path.length() - 1) {
        list(exchange, bucket, objects, query(rawQuery));
        return;
      }
      String key = path.substring(slash + 1);
      Integer slowing = slowDowns.get(path);
      if (slowing != null && slowing > 0) {
        slowDowns.put(path, slowing - 1);
        error(exchange, 503, "SlowDown", "Please reduce your request rate.", "");
        return;
      }
      Integer failing = failures.get(path);
      if (failing != null && failing > 0) {
        failures.put(path, failing - 1);
        error(exchange, 500, "InternalError", "We encountered an internal error.", "");
        return;
      }
      StoredObject object = objects.get(key);
      if (object == null) {
        error(exchange, 404, "NoSuchKey", "The specified key does not exist.", "");
        return;
      }
      exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
      exchange.getResponseHeaders().add("ETag", "\"" + etag(object.bytes()) + "\"");
      exchange.sendResponseHeaders(200, object.bytes().length == 0 ? -1 : object.bytes().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(object.bytes());
      }
    }
  }

  private void list(
      HttpExchange exchange,
      String bucket,
      NavigableMap<String, StoredObject> objects,
      Map<String, String> query)
      throws IOException {
    if (!"2".equals(query.get("list-type"))) {
      error(exchange, 400, "InvalidArgument", "only ListObjectsV2 here", "");
      return;
    }
    String prefix = query.getOrDefault("prefix", "");
    int maxKeys = Math.min(pageSize, Integer.parseInt(query.getOrDefault("max-keys", "1000")));
    String token = query.get("continuation-token");
    NavigableMap<String, StoredObject> rest =
        token == null
            ? objects
            : objects.tailMap(
                new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8).substring(1),
                false);
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    xml.append("<Name>").append(bucket).append("</Name>");
    xml.append("<Prefix>").append(escape(prefix)).append("</Prefix>");
    StringBuilder contents = new StringBuilder();
    int count = 0;
    String last = null;
    boolean truncated = false;
    for (Map.Entry<String, StoredObject> entry : rest.entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        continue;
      }
      if (count == maxKeys) {
        truncated = true;
        break;
      }
      count++;
      last = entry.getKey();
      contents
          .append("<Contents><Key>")
          .append(escape(entry.getKey()))
          .append("</Key><LastModified>")
          .append(entry.getValue().lastModified().toString().replace("Z", ".000Z"))
          .append("</LastModified><ETag>&quot;")
          .append(etag(entry.getValue().bytes()))
          .append("&quot;</ETag><Size>")
          .append(entry.getValue().bytes().length)
          .append("</Size><StorageClass>STANDARD</StorageClass></Contents>");
    }
    xml.append("<KeyCount>").append(count).append("</KeyCount>");
    xml.append("<MaxKeys>").append(maxKeys).append("</MaxKeys>");
    if (token != null) {
      xml.append("<ContinuationToken>").append(token).append("</ContinuationToken>");
    }
    xml.append("<IsTruncated>").append(truncated).append("</IsTruncated>");
    xml.append(contents);
    if (truncated) {
      xml.append("<NextContinuationToken>")
          .append(Base64.getEncoder().encodeToString(("~" + last).getBytes(StandardCharsets.UTF_8)))
          .append("</NextContinuationToken>");
    }
    xml.append("</ListBucketResult>");
    send(exchange, 200, xml.toString());
  }

  private static void error(
      HttpExchange exchange, int status, String code, String message, String more)
      throws IOException {
    send(
        exchange,
        status,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>"
            + code
            + "</Code><Message>"
            + message
            + "</Message>"
            + more
            + "<RequestId>4442587FB7D0A2F9</RequestId></Error>");
  }

  private static void send(HttpExchange exchange, int status, String xml) throws IOException {
    byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /**
   * Why the request's signature is not the one the secret key makes of it; null when it is. The
   * canonical request: the method, the path URI-encoded once (S3), the query sorted by name with
   * names and values URI-encoded, the signed headers lower-cased with trimmed values, the signed
   * header names, and {@code x-amz-content-sha256}, which must be the body's SHA-256 or {@code
   * UNSIGNED-PAYLOAD}.
   */
  private String signatureProblem(
      HttpExchange exchange, String rawPath, String rawQuery, byte[] body) {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    if (authorization == null || !authorization.startsWith("AWS4-HMAC-SHA256 ")) {
      return "no AWS4-HMAC-SHA256 Authorization";
    }
    String credential = part(authorization, "Credential=");
    String signedHeaders = part(authorization, "SignedHeaders=");
    String signature = part(authorization, "Signature=");
    String[] scope = credential.split("/");
    if (scope.length != 5
        || !scope[0].equals(accessKeyId)
        || !scope[2].equals(region)
        || !scope[3].equals("s3")
        || !scope[4].equals("aws4_request")) {
      return "credential scope " + credential;
    }
    String date = exchange.getRequestHeaders().getFirst("X-Amz-Date");
    if (date == null || !date.startsWith(scope[1])) {
      return "x-amz-date " + date + " outside the scope's day";
    }
    String payload = exchange.getRequestHeaders().getFirst("X-Amz-Content-Sha256");
    if (payload == null
        || !(payload.equals("UNSIGNED-PAYLOAD") || payload.equals(hex(sha256(body))))) {
      return "x-amz-content-sha256 " + payload + " is not the payload's hash";
    }
    List<String> names = List.of(signedHeaders.split(";"));
    for (String required : List.of("host", "x-amz-date", "x-amz-content-sha256")) {
      if (!names.contains(required)) {
        return required + " is not signed";
      }
    }
    StringBuilder canonical = new StringBuilder();
    canonical.append(exchange.getRequestMethod()).append('\n');
    canonical.append(uriEncode(decode(rawPath), false)).append('\n');
    canonical.append(canonicalQuery(rawQuery)).append('\n');
    for (String name : names) {
      String value = exchange.getRequestHeaders().getFirst(name);
      if (value == null) {
        return "signed header " + name + " is missing";
      }
      canonical.append(name).append(':').append(value.trim().replaceAll(" +", " ")).append('\n');
    }
    canonical.append('\n').append(signedHeaders).append('\n').append(payload);
    String stringToSign =
        "AWS4-HMAC-SHA256\n"
            + date
            + "\n"
            + scope[1]
            + "/"
            + region
            + "/s3/aws4_request\n"
            + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    byte[] key = ("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8);
    for (String step : List.of(scope[1], region, "s3", "aws4_request")) {
      key = hmac(key, step);
    }
    String expected = hex(hmac(key, stringToSign));
    return expected.equals(signature) ? null : "signature " + signature + " is not " + expected;
  }

  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    TreeMap<String, List<String>> sorted = new TreeMap<>();
    for (String pair : rawQuery.split("&")) {
      int equals = pair.indexOf('=');
      String name = decodeQuery(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decodeQuery(pair.substring(equals + 1));
      sorted
          .computeIfAbsent(uriEncode(name, true), n -> new ArrayList<>())
          .add(uriEncode(value, true));
    }
    List<String> params = new ArrayList<>();
    sorted.forEach(
        (name, values) ->
            values.stream().sorted().forEach(value -> params.add(name + "=" + value)));
    return String.join("&", params);
  }

  private static Map<String, String> query(String rawQuery) {
    Map<String, String> query = new TreeMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int equals = pair.indexOf('=');
        query.put(
            decodeQuery(equals < 0 ? pair : pair.substring(0, equals)),
            equals < 0 ? "" : decodeQuery(pair.substring(equals + 1)));
      }
    }
    return query;
  }

  /** A path percent-decoded ({@code +} is a plus sign in a path). */
  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** A query name or value percent-decoded, {@code +} a space (as form-encoding sends it). */
  private static String decodeQuery(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /** AWS's UriEncode: every byte but A-Z a-z 0-9 - _ . ~ as %XY, {@code /} kept in a path. */
  private static String uriEncode(String text, boolean encodeSlash) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~'
          || (c == '/' && !encodeSlash)) {
        out.append(c);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String etag(byte[] bytes) {
    try {
      return hex(MessageDigest.getInstance("MD5").digest(bytes));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String part(String authorization, String name) {
    int start = authorization.indexOf(name);
    if (start < 0) {
      return "";
    }
    start += name.length();
    int end = authorization.indexOf(',', start);
    return authorization.substring(start, end < 0 ? authorization.length() : end).trim();
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

  @Override
  public void close() {
    server.stop(0);
  }
}
