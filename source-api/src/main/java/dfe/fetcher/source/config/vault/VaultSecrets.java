package dfe.fetcher.source.config.vault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads {@code vault:} secrets from a HashiCorp Vault or OpenBao KV version 2 engine, over {@code
 * java.net.http}, with what the environment says (the variables Vault's own CLI reads):
 *
 * <ul>
 *   <li>{@code VAULT_ADDR}: the server, e.g. {@code https://vault.example:8200};
 *   <li>{@code VAULT_TOKEN} or {@code VAULT_TOKEN_FILE}: a token, used as it is; otherwise
 *   <li>{@code VAULT_ROLE_ID} and {@code VAULT_SECRET_ID} (or their {@code _FILE} forms): an
 *       AppRole login at {@code auth/<VAULT_APPROLE_MOUNT, default approle>/login}, whose token is
 *       kept for its {@code lease_duration} and renewed by logging in again;
 *   <li>{@code VAULT_NAMESPACE}: sent as {@code X-Vault-Namespace} (Vault Enterprise, OpenBao);
 *   <li>{@code VAULT_CACERT}: a PEM file of the CA certificates an {@code https} server is trusted
 *       by, instead of the JVM's.
 * </ul>
 *
 * <p>The environment is read when the first secret is, so a configuration without {@code vault:}
 * specs needs none of it. A secret (all its fields, one read) is kept for its lease when the server
 * gives one and otherwise, as KV v2 reads always do ({@code lease_duration} 0), for the cache's
 * time to live; after that the next reveal reads it again, so a rotated value is picked up within
 * that time. A failed read is not cached.
 *
 * <p>No message this class produces holds a value, a token, a role or secret id: errors name the
 * secret ({@code mount/path#field}), the server and what it answered. Thread-safe: reveals from
 * several ticks share the cache and one login.
 */
public final class VaultSecrets {

  /** How long a secret without a lease is kept when nothing else is configured. */
  public static final Duration DEFAULT_CACHE_TTL = Duration.ofMinutes(5);

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final int MAX_ERROR_CHARS = 200;
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Cached(Map<String, String> fields, Instant expiresAt) {}

  private record Token(String value, Optional<Instant> expiresAt) {}

  private final Map<String, String> environment;
  private final Duration cacheTtl;
  private final Clock clock;
  private final Map<String, Cached> cache = new HashMap<>();
  private HttpClient client;
  private Token approleToken;

  /**
   * @param environment where {@code VAULT_*} are read, when the first secret is
   * @param cacheTtl how long a secret the server gives no lease is kept; zero reads every time
   * @param clock what leases and the time to live are measured by
   */
  public VaultSecrets(Map<String, String> environment, Duration cacheTtl, Clock clock) {
    this.environment = Map.copyOf(environment);
    this.cacheTtl = Objects.requireNonNull(cacheTtl, "cacheTtl");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (cacheTtl.isNegative()) {
      throw new IllegalArgumentException("cacheTtl must not be negative, was " + cacheTtl);
    }
  }

  public VaultSecrets(Map<String, String> environment) {
    this(environment, DEFAULT_CACHE_TTL, Clock.systemUTC());
  }

  /**
   * The value of {@code reference}, from the cache while it lasts, else read now.
   *
   * @param setting the config path, put first in every message
   * @throws SecretUnavailableException naming the setting, the secret and why (unset {@code
   *     VAULT_ADDR}, sealed, permission denied, no such secret or field, unreachable), never a
   *     value or a credential
   */
  public synchronized String reveal(VaultReference reference, String setting) {
    String where = setting + ": vault:" + reference;
    Cached cached = cache.get(reference.secretPath());
    if (cached == null || !clock.instant().isBefore(cached.expiresAt())) {
      cache.remove(reference.secretPath());
      cached = read(reference, where);
      if (cached.expiresAt().isAfter(clock.instant())) {
        cache.put(reference.secretPath(), cached);
      }
    }
    String value = cached.fields().get(reference.field());
    if (value == null) {
      throw new SecretUnavailableException(
          where
              + ": the secret "
              + reference.secretPath()
              + " has no field '"
              + reference.field()
              + "' (it has "
              + (cached.fields().isEmpty()
                  ? "none"
                  : String.join(", ", cached.fields().keySet().stream().sorted().toList()))
              + ")");
    }
    return value;
  }

  private Cached read(VaultReference reference, String where) {
    URI address = address(where);
    String token = token(address, where);
    URI uri = under(address, segments(reference.mount()) + "/data/" + segments(reference.path()));
    HttpResponse<byte[]> response =
        send(request(uri, where).header("X-Vault-Token", token).GET().build(), where, token);
    if (response.statusCode() == 403 && approleToken != null) {
      // The AppRole token may have been revoked before its lease ended: log in once more.
      approleToken = null;
      token = token(address, where);
      response =
          send(request(uri, where).header("X-Vault-Token", token).GET().build(), where, token);
    }
    if (response.statusCode() != 200) {
      throw failed(where, "reading " + reference.secretPath(), uri, response, token);
    }
    JsonNode body = parse(response.body(), where, uri);
    JsonNode data = body.path("data").path("data");
    if (data.isNull()) {
      throw new SecretUnavailableException(
          where
              + ": the latest version of "
              + reference.secretPath()
              + " is deleted or destroyed ("
              + uri
              + ")");
    }
    if (!data.isObject()) {
      throw new SecretUnavailableException(
          where
              + ": "
              + uri
              + " did not answer in KV version 2's shape {\"data\":{\"data\":{...}}}; is "
              + reference.mount()
              + " a KV version 2 mount?");
    }
    Map<String, String> fields = new HashMap<>();
    data.fields()
        .forEachRemaining(
            entry ->
                fields.put(
                    entry.getKey(),
                    entry.getValue().isValueNode()
                        ? entry.getValue().asText()
                        : entry.getValue().toString()));
    long lease = body.path("lease_duration").asLong(0);
    Duration keep = lease > 0 ? Duration.ofSeconds(lease) : cacheTtl;
    return new Cached(Map.copyOf(fields), clock.instant().plus(keep));
  }

  /** The token to send: {@code VAULT_TOKEN(_FILE)}, else one from an AppRole login. */
  private String token(URI address, String where) {
    Optional<String> token = credential("VAULT_TOKEN", where);
    if (token.isPresent()) {
      return token.get();
    }
    if (approleToken != null
        && approleToken.expiresAt().map(clock.instant()::isBefore).orElse(true)) {
      return approleToken.value();
    }
    Optional<String> roleId = credential("VAULT_ROLE_ID", where);
    if (roleId.isEmpty()) {
      throw new SecretUnavailableException(
          where
              + ": no Vault credentials: set VAULT_TOKEN (or VAULT_TOKEN_FILE), or VAULT_ROLE_ID"
              + " and VAULT_SECRET_ID (or their _FILE forms) for an AppRole login");
    }
    Optional<String> secretId = credential("VAULT_SECRET_ID", where);
    approleToken = login(address, roleId.get(), secretId, where);
    return approleToken.value();
  }

  private Token login(URI address, String roleId, Optional<String> secretId, String where) {
    String mount = environment.getOrDefault("VAULT_APPROLE_MOUNT", "approle");
    URI uri = under(address, "auth/" + segments(mount) + "/login");
    ObjectNode body = JSON.createObjectNode().put("role_id", roleId);
    secretId.ifPresent(id -> body.put("secret_id", id));
    HttpResponse<byte[]> response =
        send(
            request(uri, where)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(),
            where,
            roleId,
            secretId.orElse(roleId));
    if (response.statusCode() != 200) {
      throw failed(where, "the AppRole login", uri, response, roleId, secretId.orElse(roleId));
    }
    JsonNode auth = parse(response.body(), where, uri).path("auth");
    String token = auth.path("client_token").asText("");
    if (token.isEmpty()) {
      throw new SecretUnavailableException(
          where + ": the AppRole login at " + uri + " answered without auth.client_token");
    }
    long lease = auth.path("lease_duration").asLong(0);
    // Renewed a little before it ends, so a read never goes out with a token about to lapse.
    Optional<Instant> expiresAt =
        lease > 0
            ? Optional.of(
                clock.instant().plus(Duration.ofSeconds(lease).multipliedBy(9).dividedBy(10)))
            : Optional.empty();
    return new Token(token, expiresAt);
  }

  private HttpRequest.Builder request(URI uri, String where) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
    String namespace = environment.get("VAULT_NAMESPACE");
    if (namespace != null && !namespace.isBlank()) {
      request.header("X-Vault-Namespace", namespace);
    }
    return request;
  }

  private HttpResponse<byte[]> send(HttpRequest request, String where, String... credentials) {
    try {
      return client(where).send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new SecretUnavailableException(
          where
              + ": "
              + request.method()
              + " "
              + request.uri()
              + " failed: "
              + scrub(String.valueOf(e.getMessage()), credentials)
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SecretUnavailableException(where + ": interrupted while reading from Vault");
    }
  }

  private synchronized HttpClient client(String where) {
    if (client == null) {
      HttpClient.Builder builder =
          HttpClient.newBuilder()
              .connectTimeout(CONNECT_TIMEOUT)
              .followRedirects(HttpClient.Redirect.NEVER);
      String caFile = environment.get("VAULT_CACERT");
      if (caFile != null && !caFile.isBlank()) {
        builder.sslContext(trusting(Path.of(caFile), where));
      }
      client = builder.build();
    }
    return client;
  }

  private static SSLContext trusting(Path caFile, String where) {
    try (InputStream in = Files.newInputStream(caFile)) {
      Collection<? extends Certificate> certificates =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new SecretUnavailableException(
            where + ": VAULT_CACERT " + caFile + " holds no PEM certificate");
      }
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        trust.setCertificateEntry("vault-ca-" + i++, certificate);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (NoSuchFileException e) {
      throw new SecretUnavailableException(where + ": VAULT_CACERT " + caFile + ": no such file");
    } catch (IOException | GeneralSecurityException e) {
      throw new SecretUnavailableException(
          where
              + ": VAULT_CACERT "
              + caFile
              + " is not a PEM file of CA certificates ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  private URI address(String where) {
    String address = environment.get("VAULT_ADDR");
    if (address == null || address.isBlank()) {
      throw new SecretUnavailableException(
          where + ": VAULT_ADDR is not set (the Vault server, e.g. https://vault.example:8200)");
    }
    try {
      URI uri = new URI(address.strip());
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw new SecretUnavailableException(
            where + ": VAULT_ADDR must be an http or https URL, e.g. https://vault.example:8200");
      }
      return uri;
    } catch (java.net.URISyntaxException e) {
      throw new SecretUnavailableException(
          where + ": VAULT_ADDR is not a URL, e.g. https://vault.example:8200");
    }
  }

  /** {@code NAME}, else the contents of {@code NAME_FILE} without trailing line breaks. */
  private Optional<String> credential(String name, String where) {
    String value = environment.get(name);
    if (value != null && !value.isEmpty()) {
      return Optional.of(value);
    }
    String file = environment.get(name + "_FILE");
    if (file == null || file.isEmpty()) {
      return Optional.empty();
    }
    try {
      String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      int end = text.length();
      while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
        end--;
      }
      return Optional.of(text.substring(0, end));
    } catch (IOException e) {
      throw new SecretUnavailableException(
          where
              + ": cannot read "
              + name
              + "_FILE "
              + file
              + " ("
              + (e instanceof NoSuchFileException ? "no such file" : e.getClass().getSimpleName())
              + ")");
    }
  }

  private SecretUnavailableException failed(
      String where, String what, URI uri, HttpResponse<byte[]> response, String... credentials) {
    String errors = errors(response.body());
    String hint =
        switch (response.statusCode()) {
          case 503 -> errors.contains("sealed") ? "the server is sealed: unseal it" : "unavailable";
          case 403 -> "check the token's or AppRole's policy for this path";
          case 404 -> "no such secret (or no such mount): check the spec";
          case 400 -> "check the request (AppRole role_id and secret_id, the mount)";
          default -> "unexpected answer";
        };
    return new SecretUnavailableException(
        where
            + ": "
            + what
            + " at "
            + uri
            + " answered "
            + response.statusCode()
            + (errors.isEmpty() ? "" : " (" + scrub(errors, credentials) + ")")
            + "; "
            + hint);
  }

  /** Vault's {@code {"errors":[...]}}, joined and cut short; empty when the body is not that. */
  private static String errors(byte[] body) {
    try {
      JsonNode errors = JSON.readTree(body).path("errors");
      List<String> messages = new ArrayList<>();
      errors.forEach(message -> messages.add(message.asText()));
      String joined = String.join("; ", messages);
      return joined.length() > MAX_ERROR_CHARS
          ? joined.substring(0, MAX_ERROR_CHARS) + "..."
          : joined;
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** {@code text} without any of {@code credentials}, in case a server or a library quoted one. */
  private static String scrub(String text, String... credentials) {
    String scrubbed = text;
    for (String credential : credentials) {
      if (credential != null && !credential.isEmpty()) {
        scrubbed = scrubbed.replace(credential, "***");
      }
    }
    return scrubbed;
  }

  private static JsonNode parse(byte[] body, String where, URI uri) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new SecretUnavailableException(where + ": " + uri + " answered 200 with no JSON");
    }
  }

  /** {@code VAULT_ADDR/v1/path}, keeping a path prefix the address has (a proxy's). */
  private static URI under(URI address, String path) {
    String base = address.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + "/v1/" + path);
  }

  /** Each {@code /}-separated segment percent-encoded, the slashes kept. */
  private static String segments(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/", -1)) {
      parts.add(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return String.join("/", parts);
  }
}
