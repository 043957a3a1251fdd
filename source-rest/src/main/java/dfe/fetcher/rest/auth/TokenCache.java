package dfe.fetcher.rest.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderValues;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One open connection's OAuth2 token: fetched on first use and kept until shortly before it expires
 * ({@value #EXPIRY_MARGIN_SECS}s); {@link #invalidate} drops it after a 401 so the next request
 * fetches a new one. A failed token request fails at once, without retries, naming the token
 * endpoint and never the client secret.
 */
public final class TokenCache {

  static final long EXPIRY_MARGIN_SECS = 30;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client;
  private final Clock clock;
  private String token;
  private Instant tokenExpires = Instant.MIN;

  TokenCache(HttpClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  synchronized void invalidate() {
    token = null;
  }

  synchronized String token(OAuth2ClientCredentials oauth, Cancellation cancellation)
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
    String where =
        "the token endpoint "
            + oauth.tokenUrl().getScheme()
            + "://"
            + oauth.tokenUrl().getRawAuthority()
            + oauth.tokenUrl().getRawPath();
    HttpRequest request;
    try {
      request =
          HttpRequest.newBuilder(oauth.tokenUrl())
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", "application/x-www-form-urlencoded")
              .header("Accept", "application/json")
              .header(
                  "Authorization",
                  BasicCredentials.header(oauth.clientId(), oauth.clientSecret().reveal()))
              .POST(HttpRequest.BodyPublishers.ofString(form))
              .build();
    } catch (IllegalArgumentException e) {
      // The client's message would quote the Authorization header it refused.
      throw new SourceException(where + " cannot be asked: the request cannot be built");
    }
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
    if (!HeaderValues.canCarry(accessToken.asText())) {
      throw new SourceException(where + " answered an access_token an HTTP header cannot carry");
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
}
