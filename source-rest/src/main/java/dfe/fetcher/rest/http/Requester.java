package dfe.fetcher.rest.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.auth.Authorizer;
import dfe.fetcher.rest.auth.Origin;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.source.SourceMetrics;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one logical request of a unit until it has a 2xx response: retries connection errors,
 * timeouts, 408, 429 and 5xx with capped exponential back-off and jitter (or the server's {@code
 * Retry-After}, in seconds or as an HTTP date), follows redirects within {@code base_url}'s origin,
 * fetches a fresh OAuth2 token once on a 401, and fails on everything else. A profile header whose
 * name carries a credential ({@link HeaderNames#carriesCredentials}) goes, as the credentials do,
 * only to {@code base_url}'s origin. Every exchange is registered with the tick's {@link
 * Cancellation} and every back-off sleeps through it, so a stop ends a request or a wait at once.
 *
 * <p>Redirects to another origin are refused rather than followed without credentials: a redirect
 * is the API's own answer, and landing whatever another host returns for it would be guessing.
 */
public final class Requester {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REDIRECTS = 5;
  private static final int MAX_ERROR_BODY = 64 * 1024;

  /** One logical request: what the endpoint asks for, before credentials. */
  public record Call(
      String source,
      Endpoint endpoint,
      URI uri,
      Map<String, String> headers,
      Optional<byte[]> body,
      RateLimit rate) {}

  private final HttpClient client;
  private final Authorizer authorizer;
  private final Origin origin;
  private final RetryPolicy retry;
  private final Clock clock;
  private final ScheduledExecutorService watchdog;
  private final SourceMetrics metrics;

  public Requester(
      HttpClient client,
      Authorizer authorizer,
      Origin origin,
      RetryPolicy retry,
      Clock clock,
      ScheduledExecutorService watchdog,
      SourceMetrics metrics) {
    this.client = client;
    this.authorizer = authorizer;
    this.origin = origin;
    this.retry = retry;
    this.clock = clock;
    this.watchdog = watchdog;
    this.metrics = metrics;
  }

  public Authorizer authorizer() {
    return authorizer;
  }

  /**
   * The 2xx response to {@code call}, its body not yet read.
   *
   * @throws SourceException naming the method, the URL (an API key masked) and the status or the
   *     failure, never a credential
   */
  public Response send(Call call, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Endpoint endpoint = call.endpoint();
    URI target = call.uri();
    String method = endpoint.method();
    Optional<byte[]> body = call.body();
    int retries = 0;
    int redirects = 0;
    boolean refreshed = false;
    while (true) {
      call.rate().acquire(cancellation);
      String described = method + " " + authorizer.describe(target);
      HttpResponse<InputStream> response;
      long started = System.nanoTime();
      try {
        response = exchange(request(target, method, body, call, cancellation), cancellation);
      } catch (IOException e) {
        metrics.increment(
            MetricNames.REST_REQUESTS, call.source(), Map.of("status_class", "error"));
        String why = failure(e);
        if (retries >= retry.maxRetries()) {
          throw new SourceException(described + " failed: " + why + RetryPolicy.gaveUp(retries), e);
        }
        backOff(call, described, why, retries, Optional.empty(), cancellation);
        retries++;
        continue;
      }
      metrics.observeSeconds(
          MetricNames.REST_REQUEST_DURATION, call.source(), (System.nanoTime() - started) / 1e9);
      int status = response.statusCode();
      metrics.increment(
          MetricNames.REST_REQUESTS, call.source(), Map.of("status_class", status / 100 + "xx"));
      if (status / 100 == 2) {
        return response(target, response, endpoint);
      }
      if (isRedirect(status) && response.headers().firstValue("Location").isPresent()) {
        close(response);
        URI next = target.resolve(response.headers().firstValue("Location").get());
        if (!Origin.of(next).equals(origin)) {
          throw new SourceException(
              described
                  + " redirected to another origin, "
                  + Origin.of(next)
                  + "; credentials go only to base_url's origin ("
                  + origin
                  + "), so the redirect is not followed");
        }
        if (++redirects > MAX_REDIRECTS) {
          throw new SourceException(
              described + " redirected more than " + MAX_REDIRECTS + " times");
        }
        if (status == 303) {
          method = "GET";
          body = Optional.empty();
        }
        target = next;
        continue;
      }
      if (status == 401 && authorizer.refreshes() && !refreshed) {
        close(response);
        authorizer.invalidate();
        refreshed = true;
        continue;
      }
      if (RetryPolicy.retries(status)) {
        Optional<Duration> retryAfter = retryAfter(response.headers());
        close(response);
        if (status == 429) {
          metrics.increment(MetricNames.REST_THROTTLED, call.source(), Map.of());
        }
        if (retries >= retry.maxRetries()) {
          throw new SourceException(
              described + " answered " + status + RetryPolicy.gaveUp(retries));
        }
        if (retryAfter.isPresent()
            && retryAfter.get().compareTo(Duration.ofSeconds(retry.maxRetryWaitSecs())) > 0) {
          throw new SourceException(
              described
                  + " answered "
                  + status
                  + " asking to wait "
                  + retryAfter.get().toSeconds()
                  + "s (Retry-After), beyond retry.max_retry_wait_secs "
                  + retry.maxRetryWaitSecs());
        }
        backOff(call, described, "status " + status, retries, retryAfter, cancellation);
        retries++;
        continue;
      }
      String text = errorText(target, response, endpoint, cancellation);
      throw new SourceException(
          described
              + " answered "
              + status
              + text
              + (status == 401 || status == 403 ? " (check the instance's auth)" : "")
              + "; not retried");
    }
  }

  private HttpRequest request(
      URI target, String method, Optional<byte[]> body, Call call, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String described = method + " " + authorizer.describe(target);
    try {
      URI uri = authorizer.uri(target);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(call.endpoint().timeoutSecs()))
              .header("Accept-Encoding", "gzip");
      boolean atOrigin = Origin.of(target).equals(origin);
      for (Map.Entry<String, String> header : call.headers().entrySet()) {
        if (!atOrigin && HeaderNames.carriesCredentials(header.getKey())) {
          continue;
        }
        if (!HeaderValues.canCarry(header.getValue())) {
          throw new SourceException(
              described
                  + " cannot be sent: header "
                  + header.getKey()
                  + " holds a character an HTTP header cannot carry");
        }
        request.header(header.getKey(), header.getValue());
      }
      if (method.equals("POST")) {
        request.header("Content-Type", "application/json");
        request.POST(HttpRequest.BodyPublishers.ofByteArray(body.orElse(new byte[0])));
      } else {
        request.GET();
      }
      authorizer.authorize(request, target, cancellation);
      return request.build();
    } catch (SecretUnavailableException e) {
      throw Authorizer.unavailable(e);
    } catch (IllegalArgumentException e) {
      // The client's message quotes the header or URI it refused, a credential perhaps: drop it.
      throw new SourceException(
          described
              + " cannot be sent: a header or the URI holds what an HTTP request cannot carry");
    }
  }

  private HttpResponse<InputStream> exchange(HttpRequest request, Cancellation cancellation)
      throws IOException, InterruptedException, SourceException {
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
      throw new SourceException(
          request.method() + " failed: " + e.getCause().getClass().getSimpleName(), e.getCause());
    }
  }

  private Response response(URI target, HttpResponse<InputStream> response, Endpoint endpoint)
      throws SourceException {
    StallGuard guard = new StallGuard(response.body(), endpoint.timeoutSecs(), watchdog);
    InputStream body = guard;
    String encoding =
        response.headers().firstValue("Content-Encoding").orElse("").toLowerCase(Locale.ROOT);
    try {
      if (encoding.equals("gzip") || encoding.equals("x-gzip")) {
        body = new GZIPInputStream(guard, 64 * 1024);
      }
    } catch (IOException e) {
      closeQuietly(guard);
      throw new SourceException(
          endpoint.method() + " " + authorizer.describe(target) + ": the gzip body is not gzip", e);
    }
    return new Response(
        target,
        response.statusCode(),
        response.headers(),
        new BufferedInputStream(body, 64 * 1024),
        guard);
  }

  private void backOff(
      Call call,
      String described,
      String why,
      int retries,
      Optional<Duration> retryAfter,
      Cancellation cancellation)
      throws InterruptedException {
    Duration wait =
        retryAfter.orElseGet(
            () -> retry.backoff(retries, ThreadLocalRandom.current().nextDouble()));
    metrics.increment(MetricNames.REST_RETRIES, call.source(), Map.of());
    LOG.warn(
        "event=rest_request_retried unit={} request=\"{}\" reason=\"{}\" retry={} of={} wait_ms={}",
        call.source(),
        described,
        why,
        retries + 1,
        retry.maxRetries(),
        wait.toMillis());
    cancellation.sleep(wait);
  }

  /**
   * {@code Retry-After} as seconds or an HTTP date (RFC 9110 section 10.2.3); a date in the past is
   * no wait.
   */
  Optional<Duration> retryAfter(HttpHeaders headers) {
    Optional<String> value = headers.firstValue("Retry-After").map(String::trim);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    if (value.get().matches("\\d{1,10}")) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(value.get())));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(value.get(), DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(clock.instant(), at.toInstant());
      return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /**
   * The error text at {@code error_at} of a non-2xx JSON body, quoted; empty without one. The body
   * is read as a page is (the stall bound, the cancellation, gzip), and at most {@value
   * #MAX_ERROR_BODY} bytes of it: the status fails the request whatever the body does.
   */
  private String errorText(
      URI target, HttpResponse<InputStream> response, Endpoint endpoint, Cancellation cancellation)
      throws InterruptedException {
    if (endpoint.errorAt().isEmpty()) {
      close(response);
      return "";
    }
    Response body;
    try {
      body = response(target, response, endpoint);
    } catch (SourceException e) {
      return "";
    }
    try (body;
        Cancellation.Registration cancel = cancellation.onCancel(body::close)) {
      byte[] bytes = body.body().readNBytes(MAX_ERROR_BODY);
      return ErrorText.quoted(JSON.readTree(bytes).at(endpoint.errorAt().get()));
    } catch (IOException | RuntimeException e) {
      cancellation.throwIfCancelled();
      return body.guard().stalled()
          ? " (its body stalled for timeout_secs " + endpoint.timeoutSecs() + ")"
          : "";
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  public static String failure(IOException e) {
    if (e instanceof HttpTimeoutException) {
      return "timed out";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    return e.getClass().getSimpleName();
  }

  private static void close(HttpResponse<InputStream> response) {
    closeQuietly(response.body());
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // The exchange is over either way.
    }
  }
}
