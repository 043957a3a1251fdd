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
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * Sends the requests a mode makes to get a token (an OAuth2 token request, a login, an STS call),
 * bounded as a page is: {@code timeout_secs} until the response starts and on any stall of its
 * body, at most {@value #MAX_BODY} bytes of body, every exchange and back-off ended by the tick's
 * cancellation. Connection errors, timeouts, 408, 429 and 5xx are tried again under the profile's
 * {@code retry}; any other answer fails at once. Messages and log lines name the endpoint (scheme,
 * authority, path), never a secret or a token.
 */
final class TokenEndpoint {

  /** A token and how long it is good for, as the endpoint said. */
  record Token(String value, long expiresInSecs) {
    @Override
    public String toString() {
      return "Token[***]";
    }
  }

  /** A 2xx answer: its headers and its body, read whole. */
  record Answer(HttpHeaders headers, byte[] body) {}

  static final int MAX_BODY = 64 * 1024;
  static final long DEFAULT_EXPIRES_IN_SECS = 3_600;
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

  /** A request to {@code uri} with this endpoint's timeout, for a mode to fill in. */
  HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(timeoutSecs));
  }

  /**
   * A form POST ({@code application/x-www-form-urlencoded}) answered in JSON, as OAuth2 token
   * endpoints take.
   */
  HttpRequest.Builder form(URI uri, String form) {
    return request(uri)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(form));
  }

  /**
   * Sends {@code request} until it is answered 2xx, retrying what passes.
   *
   * @param what the endpoint as a message names it, e.g. {@code the token endpoint}
   * @param refused what to check when it answers a status not worth retrying, e.g. {@code check
   *     client_id and client_secret (sources.rest.lab.auth)}
   */
  Answer exchange(HttpRequest request, String what, String refused, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String where = describe(what, request.uri());
    for (int retries = 0; ; retries++) {
      String failure;
      try {
        HttpResponse<InputStream> response = send(request, cancellation);
        int status = response.statusCode();
        if (status / 100 == 2) {
          return new Answer(response.headers(), read(response, where, cancellation));
        }
        response.body().close();
        if (!RetryPolicy.retries(status)) {
          throw new SourceException(where + " answered " + status + "; " + refused);
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

  /**
   * Builds a request, turning the client's refusal into a message that names {@code what} only: the
   * client's own message would quote the header it refused, a credential perhaps.
   */
  static HttpRequest build(HttpRequest.Builder request, String what) throws SourceException {
    try {
      return request.build();
    } catch (IllegalArgumentException e) {
      throw new SourceException(
          describe(what, request.copy().build().uri())
              + " cannot be asked: the request cannot be built");
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

  /** The {@code access_token} and {@code expires_in} of an OAuth2 token response (RFC 6749 5.1). */
  static Token accessToken(byte[] bytes, String where) throws SourceException {
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

  /** {@code what} and the URL without its query: safe to print. */
  static String describe(String what, URI tokenUrl) {
    return what
        + " "
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
