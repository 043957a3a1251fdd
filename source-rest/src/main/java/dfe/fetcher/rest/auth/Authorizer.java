package dfe.fetcher.rest.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Puts an instance's credentials on a request, but only on a request to {@code base_url}'s origin.
 * An OAuth2 token is fetched on first use and kept until shortly before it expires ({@value
 * #EXPIRY_MARGIN_SECS}s); {@link #invalidate} drops it after a 401 so the next request fetches a
 * new one. Nothing here logs, and no message it makes holds a secret or a token.
 */
public final class Authorizer {

  static final long EXPIRY_MARGIN_SECS = 30;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Credentials credentials;
  private final Origin origin;
  private final HttpClient client;
  private final Clock clock;
  private String token;
  private Instant tokenExpires = Instant.MIN;

  public Authorizer(Credentials credentials, Origin origin, HttpClient client, Clock clock) {
    this.credentials = credentials;
    this.origin = origin;
    this.client = client;
    this.clock = clock;
  }

  public boolean refreshes() {
    return credentials instanceof Credentials.OAuth2ClientCredentials;
  }

  /** The URI to request: {@code uri} with the key's query parameter when that is how it is sent. */
  public URI uri(URI uri) {
    if (credentials instanceof Credentials.ApiKey key
        && key.queryParam().isPresent()
        && Origin.of(uri).equals(origin)) {
      String param =
          URLEncoder.encode(key.queryParam().get(), StandardCharsets.UTF_8)
              + "="
              + URLEncoder.encode(reveal(key.key()), StandardCharsets.UTF_8);
      String query = uri.getRawQuery() == null ? param : uri.getRawQuery() + "&" + param;
      return URI.create(
          uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath() + "?" + query);
    }
    return uri;
  }

  /** Adds the credential's header, when {@code uri} is at the base origin. */
  public void authorize(HttpRequest.Builder request, URI uri, Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (!Origin.of(uri).equals(origin)) {
      return;
    }
    if (credentials instanceof Credentials.Bearer bearer) {
      request.header("Authorization", "Bearer " + reveal(bearer.token()));
    } else if (credentials instanceof Credentials.Basic basic) {
      request.header("Authorization", basic(basic.user(), reveal(basic.password())));
    } else if (credentials instanceof Credentials.ApiKey key && key.header().isPresent()) {
      request.header(key.header().get(), key.prefix() + reveal(key.key()));
    } else if (credentials instanceof Credentials.OAuth2ClientCredentials oauth) {
      request.header("Authorization", "Bearer " + token(oauth, cancellation));
    }
  }

  public synchronized void invalidate() {
    token = null;
  }

  /** {@code uri} safe to print: an API key sent as a query parameter shows as {@code ***}. */
  public String describe(URI uri) {
    String text = uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    String query = uri.getRawQuery();
    if (query == null) {
      return text;
    }
    if (credentials instanceof Credentials.ApiKey key && key.queryParam().isPresent()) {
      String name = URLEncoder.encode(key.queryParam().get(), StandardCharsets.UTF_8) + "=";
      StringBuilder masked = new StringBuilder();
      for (String param : query.split("&")) {
        masked.append(masked.length() == 0 ? "" : "&");
        masked.append(param.startsWith(name) ? name + "***" : param);
      }
      query = masked.toString();
    }
    return text + "?" + query;
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static String reveal(Secret secret) {
    return secret.reveal();
  }

  private synchronized String token(
      Credentials.OAuth2ClientCredentials oauth, Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (token != null && clock.instant().isBefore(tokenExpires)) {
      return token;
    }
    String form =
        "grant_type=client_credentials"
            + oauth
                .scope()
                .map(s -> "&scope=" + URLEncoder.encode(s, StandardCharsets.UTF_8))
                .orElse("");
    HttpRequest request =
        HttpRequest.newBuilder(oauth.tokenUrl())
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .header("Authorization", basic(oauth.clientId(), reveal(oauth.clientSecret())))
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    String where =
        "the token endpoint "
            + oauth.tokenUrl().getScheme()
            + "://"
            + oauth.tokenUrl().getRawAuthority()
            + oauth.tokenUrl().getRawPath();
    CompletableFuture<HttpResponse<byte[]>> future =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    HttpResponse<byte[]> response;
    try (Cancellation.Registration cancel = cancellation.onCancel(() -> future.cancel(true))) {
      response = future.get();
    } catch (CancellationException e) {
      throw new InterruptedException("cancelled: " + cancellation.reason());
    } catch (ExecutionException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          where + " could not be reached: " + e.getCause().getClass().getSimpleName(), e);
    }
    if (response.statusCode() / 100 != 2) {
      throw new SourceException(
          where + " answered " + response.statusCode() + "; check client_id and client_secret");
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new SourceException(where + " answered with a body that is not JSON");
    }
    JsonNode accessToken = body == null ? null : body.get("access_token");
    if (accessToken == null || !accessToken.isTextual() || accessToken.asText().isEmpty()) {
      throw new SourceException(where + " answered without an access_token");
    }
    long expiresIn =
        Optional.ofNullable(body.get("expires_in"))
            .filter(JsonNode::canConvertToLong)
            .map(JsonNode::asLong)
            .orElse(3_600L);
    token = accessToken.asText();
    tokenExpires = clock.instant().plusSeconds(Math.max(0, expiresIn - EXPIRY_MARGIN_SECS));
    return token;
  }

  /** A secret that cannot be read fails the request with a message naming the setting only. */
  public static SourceException unavailable(SecretUnavailableException e) {
    return new SourceException(e.getMessage(), e);
  }
}
