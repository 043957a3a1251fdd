package dfe.fetcher.rest.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderValues;
import dfe.fetcher.rest.http.Requester;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.rest.http.StallGuard;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks {@code token_url} for a token (RFC 6749 section 4.4, the client authenticating with HTTP
 * Basic), bounded as a page is: {@code timeout_secs} until the response starts and on any stall of
 * its body, at most {@value #MAX_BODY} bytes of body, every exchange and back-off ended by the
 * tick's cancellation. Connection errors, timeouts, 408, 429 and 5xx are tried again under the
 * profile's {@code retry}; any other answer fails at once. Messages and log lines name the token
 * endpoint (scheme, authority, path), never the client secret or a token.
 */
final class TokenEndpoint {

  /** A token and how long it is good for, as the endpoint said. */
  record Token(String value, long expiresInSecs) {
    @Override
    public String toString() {
      return "Token[***]";
    }
  }

  static final int MAX_BODY = 64 * 1024;
  private static final long DEFAULT_EXPIRES_IN_SECS = 3_600;
  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The body stalled: told apart from other read failures for the message. */
  private static final class Stalled extends IOException {
    private static final long serialVersionUID = 1L;
  }

  private final HttpClient client;
  private final ScheduledExecutorService watchdog;
  private final RetryPolicy retry;
  private final int timeoutSecs;

  TokenEndpoint(
      HttpClient client, ScheduledExecutorService watchdog, RetryPolicy retry, int timeoutSecs) {
    this.client = client;
    this.watchdog = watchdog;
    this.retry = retry;
    this.timeoutSecs = timeoutSecs;
  }

  Token fetch(OAuth2ClientCredentials oauth, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String where = describe(oauth.tokenUrl());
    for (int retries = 0; ; retries++) {
      String failure;
      try {
        HttpResponse<InputStream> response = send(request(oauth, where), cancellation);
        int status = response.statusCode();
        if (status / 100 == 2) {
          return token(read(response, where, cancellation), where);
        }
        response.body().close();
        if (!RetryPolicy.retries(status)) {
          throw new SourceException(
              where + " answered " + status + "; check client_id and client_secret");
        }
        failure = " answered " + status;
      } catch (IOException e) {
        cancellation.throwIfCancelled();
        failure =
            " failed: "
                + (e instanceof Stalled
                    ? "its body stalled for timeout_secs " + timeoutSecs
                    : Requester.failure(e));
      }
      if (retries >= retry.maxRetries()) {
        throw new SourceException(where + failure + RetryPolicy.gaveUp(retries));
      }
      Duration wait = retry.backoff(retries, ThreadLocalRandom.current().nextDouble());
      LOG.warn(
          "event=rest_token_retried token_endpoint=\"{}\" reason=\"{}\" retry={} of={} wait_ms={}",
          where,
          failure.trim(),
          retries + 1,
          retry.maxRetries(),
          wait.toMillis());
      cancellation.sleep(wait);
    }
  }

  private HttpRequest request(OAuth2ClientCredentials oauth, String where) throws SourceException {
    String form =
        "grant_type=client_credentials"
            + oauth
                .scope()
                .map(s -> "&scope=" + URLEncoder.encode(s, StandardCharsets.UTF_8))
                .orElse("");
    try {
      return HttpRequest.newBuilder(oauth.tokenUrl())
          .timeout(Duration.ofSeconds(timeoutSecs))
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
  }

  private HttpResponse<InputStream> send(HttpRequest request, Cancellation cancellation)
      throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<InputStream>> future =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    try (Cancellation.Registration cancel = cancellation.onCancel(() -> future.cancel(true))) {
      return future.get();
    } catch (CancellationException e) {
      throw new InterruptedException("cancelled: " + cancellation.reason());
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      cancellation.throwIfCancelled();
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause().getClass().getSimpleName());
    }
  }

  private byte[] read(HttpResponse<InputStream> response, String where, Cancellation cancellation)
      throws IOException, SourceException {
    StallGuard guard = new StallGuard(response.body(), timeoutSecs, watchdog);
    byte[] bytes;
    try (guard;
        Cancellation.Registration cancel = cancellation.onCancel(() -> closeQuietly(guard))) {
      bytes = guard.readNBytes(MAX_BODY + 1);
    } catch (IOException e) {
      if (guard.stalled()) {
        throw new Stalled();
      }
      throw e;
    }
    if (bytes.length > MAX_BODY) {
      throw new SourceException(where + " answered a body longer than " + MAX_BODY + " bytes");
    }
    return bytes;
  }

  private static Token token(byte[] bytes, String where) throws SourceException {
    JsonNode body;
    try {
      body = JSON.readTree(bytes);
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
            .orElse(DEFAULT_EXPIRES_IN_SECS);
    return new Token(accessToken.asText(), expiresIn);
  }

  private static String describe(URI tokenUrl) {
    return "the token endpoint "
        + tokenUrl.getScheme()
        + "://"
        + tokenUrl.getRawAuthority()
        + tokenUrl.getRawPath();
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // The read fails either way.
    }
  }
}
