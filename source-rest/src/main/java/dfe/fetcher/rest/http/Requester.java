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
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one logical request of a unit until it has a 2xx response, under the endpoint's {@link
 * ErrorPolicy}: retries connection errors, timeouts, 408, 429 and 5xx (or the statuses of {@code
 * errors.retry_on}, never those of {@code errors.never_retry}) with capped exponential back-off and
 * jitter, or waits out a throttle (a 429, a 403 with an exhausted quota or a {@code Retry-After},
 * an answer {@code errors.throttle_when} holds for) for as long as its rate-limit headers ask
 * ({@link RateLimitHeaders}), up to {@code retry.max_retry_wait_secs}. A POST is tried again after
 * a throttle, and after anything else only with {@code errors.retry_non_idempotent}. A status of
 * {@code errors.ignore_status} is handed back as an {@linkplain Response#ignored() ignored} answer.
 * It follows redirects within {@code base_url}'s origin, fetches a fresh OAuth2 token once on a
 * 401, and fails on everything else. A profile header whose name carries a credential ({@link
 * HeaderNames#carriesCredentials}) goes, as the credentials do, only to {@code base_url}'s origin.
 * After a 2xx answer that said the quota is spent, the next request on the origin waits for the
 * reset first. Every answer's quota headers (the profile's {@link QuotaHeaders}) set the unit's
 * quota gauges. Every request passes the connection's {@link BudgetGate}. Every exchange is
 * registered with the tick's {@link Cancellation} and every wait sleeps through it, so a stop ends
 * a request or a wait at once.
 *
 * <p>Redirects to another origin are refused rather than followed without credentials: a redirect
 * is the API's own answer, and landing whatever another host returns for it would be guessing.
 */
public final class Requester {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.source.rest");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REDIRECTS = 5;
  private static final int MAX_ERROR_BODY = 64 * 1024;
  private static final String THROTTLE = " (throttled)";
  private static final String NOT_IDEMPOTENT =
      "; not retried: a POST is tried again only with errors.retry_non_idempotent: true";

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
  private final BudgetGate budget;
  private final QuotaHeaders quota;

  /**
   * When a 2xx answer said the quota is spent, when it resets: the next request of any unit on this
   * origin (they share the credentials the quota is counted on) waits until then.
   */
  private final AtomicReference<RateLimitHeaders.Reset> quotaSpentUntil = new AtomicReference<>();

  /**
   * @param budget the connection's {@code rate} and {@code max_concurrent_requests}, shared with
   *     every other requester of the connection
   * @param quota the headers the profile's {@code quota.headers} names, read into gauges
   */
  public Requester(
      HttpClient client,
      Authorizer authorizer,
      Origin origin,
      RetryPolicy retry,
      Clock clock,
      ScheduledExecutorService watchdog,
      SourceMetrics metrics,
      BudgetGate budget,
      QuotaHeaders quota) {
    this.client = client;
    this.authorizer = authorizer;
    this.origin = origin;
    this.retry = retry;
    this.clock = clock;
    this.watchdog = watchdog;
    this.metrics = metrics;
    this.budget = budget;
    this.quota = quota;
  }

  public Authorizer authorizer() {
    return authorizer;
  }

  /**
   * The 2xx response to {@code call}, its body not yet read; or, when the endpoint's {@code
   * errors.ignore_status} lists the status, an {@linkplain Response#ignored() ignored} answer with
   * an empty body.
   *
   * @throws SourceException naming the method, the URL (an API key masked) and the status or the
   *     failure, never a credential
   */
  public Response send(Call call, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Endpoint endpoint = call.endpoint();
    ErrorPolicy errors = endpoint.errors();
    URI target = call.uri();
    String method = endpoint.method();
    Optional<byte[]> body = call.body();
    int retries = 0;
    int redirects = 0;
    boolean refreshed = false;
    while (true) {
      call.rate().acquire(cancellation);
      awaitQuota(call, method + " " + authorizer.describe(target), cancellation);
      BudgetGate.Slot slot = budget.enter(call.source(), cancellation);
      boolean handedOn = false;
      try {
        String described = method + " " + authorizer.describe(target);
        HttpResponse<InputStream> response;
        long started = System.nanoTime();
        try {
          response = exchange(request(target, method, body, call, cancellation), cancellation);
        } catch (IOException e) {
          metrics.increment(
              MetricNames.REST_REQUESTS, call.source(), Map.of("status_class", "error"));
          String why = failure(e);
          if (!errors.retriesMethod(method)) {
            throw new SourceException(described + " failed: " + why + NOT_IDEMPOTENT, e);
          }
          if (retries >= retry.maxRetries()) {
            throw new SourceException(
                described + " failed: " + why + RetryPolicy.gaveUp(retries), e);
          }
          slot.close();
          backOff(call, described, why, retries, Optional.empty(), cancellation);
          retries++;
          continue;
        }
        metrics.observeSeconds(
            MetricNames.REST_REQUEST_DURATION, call.source(), (System.nanoTime() - started) / 1e9);
        int status = response.statusCode();
        metrics.increment(
            MetricNames.REST_REQUESTS, call.source(), Map.of("status_class", status / 100 + "xx"));
        Instant now = clock.instant();
        RateLimitHeaders limits = RateLimitHeaders.read(response.headers(), now);
        if (!quota.names(QuotaGauge.REMAINING)) {
          limits
              .remaining()
              .ifPresent(left -> metrics.set(MetricNames.API_QUOTA_REMAINING, call.source(), left));
        }
        quota.report(response.headers(), now, call.source(), metrics);
        if (status / 100 == 2) {
          noteQuota(limits);
          Response answer = response(target, response, endpoint, slot);
          handedOn = true;
          return answer;
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
        if (errors.ignores(status)) {
          close(response);
          LOG.debug(
              "event=rest_status_ignored unit={} request=\"{}\" status={}",
              call.source(),
              described,
              status);
          return new Response(
              target,
              status,
              response.headers(),
              InputStream.nullInputStream(),
              new StallGuard(InputStream.nullInputStream(), endpoint.timeoutSecs(), watchdog));
        }
        // Read only when a throttle_when needs it, or below when the request fails and error_at
        // quotes it: a retried answer's body is not waited for.
        Optional<ErrorBody> read =
            errors.throttleWhen().isPresent()
                ? Optional.of(readErrorBody(target, response, endpoint, cancellation))
                : Optional.empty();
        boolean throttle =
            status == 429
                || (status == 403 && (limits.exhausted() || limits.retryAfter().isPresent()))
                || errors
                    .throttleWhen()
                    .filter(condition -> condition.holds(status, read.get().bytes()))
                    .isPresent();
        if (throttle) {
          metrics.increment(MetricNames.REST_THROTTLED, call.source(), Map.of());
        }
        boolean again =
            throttle
                ? errors.waitsOutThrottle(status)
                : errors.retries(status) && errors.retriesMethod(method);
        String answered = described + " answered " + status + (throttle ? THROTTLE : "");
        if (again) {
          if (read.isEmpty()) {
            close(response);
          }
          if (retries >= retry.maxRetries()) {
            throw new SourceException(answered + RetryPolicy.gaveUp(retries));
          }
          Optional<RateLimitHeaders.Wait> wait = limits.waitFrom(clock.instant());
          if (wait.isPresent()
              && wait.get().duration().compareTo(Duration.ofSeconds(retry.maxRetryWaitSecs()))
                  > 0) {
            throw new SourceException(
                described
                    + " answered "
                    + status
                    + " asking to wait "
                    + wait.get().duration().toSeconds()
                    + "s ("
                    + wait.get().header()
                    + "), beyond retry.max_retry_wait_secs "
                    + retry.maxRetryWaitSecs());
          }
          slot.close();
          backOff(
              call,
              described,
              "status " + status + (throttle ? THROTTLE : ""),
              retries,
              wait.map(RateLimitHeaders.Wait::duration),
              cancellation);
          retries++;
          continue;
        }
        ErrorBody errorBody =
            read.isPresent()
                ? read.get()
                : endpoint.errorAt().isPresent() || endpoint.lister().isPresent()
                    ? readErrorBody(target, response, endpoint, cancellation)
                    : ErrorBody.unread(response);
        String notRetried;
        if (errors.neverRetry().contains(status)) {
          notRetried = "; not retried (errors.never_retry)";
        } else if (errors.retries(status) && !errors.retriesMethod(method)) {
          notRetried = NOT_IDEMPOTENT;
        } else {
          notRetried = "; not retried";
        }
        throw new SourceException(
            answered
                + errorText(errorBody, endpoint)
                + (status == 401 || (status == 403 && !throttle)
                    ? " (check the instance's auth)"
                    : "")
                + notRetried);
      } finally {
        if (!handedOn) {
          slot.close();
        }
      }
    }
  }

  /** Remembers a spent quota's reset from a 2xx answer, or forgets it once quota is left. */
  private void noteQuota(RateLimitHeaders limits) {
    if (limits.exhausted() && limits.reset().isPresent()) {
      quotaSpentUntil.set(limits.reset().get());
    } else if (limits.remaining().isPresent()) {
      quotaSpentUntil.set(null);
    }
  }

  /**
   * Waits until the reset of a quota a 2xx answer said is spent, rather than send a request that
   * would be refused; fails when that is beyond {@code retry.max_retry_wait_secs}.
   */
  private void awaitQuota(Call call, String described, Cancellation cancellation)
      throws SourceException, InterruptedException {
    RateLimitHeaders.Reset reset = quotaSpentUntil.get();
    if (reset == null) {
      return;
    }
    Duration wait = Duration.between(clock.instant(), reset.at());
    if (wait.isNegative() || wait.isZero()) {
      quotaSpentUntil.compareAndSet(reset, null);
      return;
    }
    if (wait.compareTo(Duration.ofSeconds(retry.maxRetryWaitSecs())) > 0) {
      throw new SourceException(
          described
              + " not sent: the API's last answer said its quota is spent until "
              + reset.at()
              + " ("
              + reset.header()
              + "), "
              + wait.toSeconds()
              + "s away, beyond retry.max_retry_wait_secs "
              + retry.maxRetryWaitSecs());
    }
    LOG.info(
        "event=rest_quota_wait unit={} request=\"{}\" header={} wait_ms={}",
        call.source(),
        described,
        reset.header(),
        wait.toMillis());
    cancellation.sleep(wait);
    quotaSpentUntil.compareAndSet(reset, null);
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
        // A profile's own Content-Type (AWS's application/x-amz-json-1.1) is sent instead.
        if (call.headers().keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
          request.header("Content-Type", "application/json");
        }
        request.POST(HttpRequest.BodyPublishers.ofByteArray(body.orElse(new byte[0])));
      } else {
        request.GET();
      }
      if (!authorizer.reaches(target)) {
        metrics.increment(MetricNames.REST_CREDENTIALS_WITHHELD, call.source(), Map.of());
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

  /**
   * Sends {@code request} with the blocking {@code send}, on the calling thread: {@code sendAsync}
   * hands every answer on to the JDK's default executor, which on a machine of two cores starts a
   * thread for each (0.8 ms a page, docs/benchmarks.md). A cancellation interrupts the calling
   * thread, which aborts the exchange, as the driver's own interrupt of a tick's thread does.
   */
  private HttpResponse<InputStream> exchange(HttpRequest request, Cancellation cancellation)
      throws IOException, InterruptedException, SourceException {
    Thread caller = Thread.currentThread();
    try (Cancellation.Registration cancel = cancellation.onCancel(caller::interrupt)) {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      if (cancellation.isCancelled()) {
        throw new InterruptedException("cancelled: " + cancellation.reason());
      }
      throw e;
    } catch (IOException e) {
      cancellation.throwIfCancelled();
      throw original(request, e);
    }
  }

  /**
   * What the exchange failed with, as {@code sendAsync} reported it: {@code send} wraps a failure
   * that is not one of the kinds it keeps (a timeout, a refused connection, TLS) in a plain {@link
   * IOException}, which would name the wrong kind in messages and metrics.
   */
  private static IOException original(HttpRequest request, IOException e) throws SourceException {
    if (e.getClass() != IOException.class || e.getCause() == null) {
      return e;
    }
    if (e.getCause() instanceof IOException cause) {
      return cause;
    }
    throw new SourceException(
        request.method() + " failed: " + e.getCause().getClass().getSimpleName(), e.getCause());
  }

  /**
   * The response with its body guarded against stalls and gunzipped; closing its body gives {@code
   * slot} back.
   */
  private Response response(
      URI target, HttpResponse<InputStream> response, Endpoint endpoint, BudgetGate.Slot slot)
      throws SourceException {
    StallGuard guard = new StallGuard(response.body(), endpoint.timeoutSecs(), watchdog);
    InputStream body = guard;
    String encoding =
        response.headers().firstValue("Content-Encoding").orElse("").toLowerCase(Locale.ROOT);
    try {
      if (encoding.equals("gzip") || encoding.equals("x-gzip")) {
        body = new GunzippedBody(guard);
      }
    } catch (IOException e) {
      closeQuietly(guard);
      throw new SourceException(
          endpoint.method() + " " + authorizer.describe(target) + ": the gzip body is not gzip", e);
    }
    InputStream buffered =
        new FilterInputStream(new BufferedInputStream(body, 64 * 1024)) {
          @Override
          public void close() throws IOException {
            try {
              super.close();
            } finally {
              slot.close();
            }
          }
        };
    return new Response(target, response.statusCode(), response.headers(), buffered, guard);
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
   * A non-2xx body as read for {@code throttle_when} and {@code error_at}.
   *
   * @param bytes at most {@value #MAX_ERROR_BODY} bytes of it; empty when not read or unreadable
   * @param stalled whether it stalled for {@code timeout_secs} while it was read
   * @param read whether it was read at all
   */
  private record ErrorBody(byte[] bytes, boolean stalled, boolean read) {
    static ErrorBody unread(HttpResponse<InputStream> response) {
      close(response);
      return new ErrorBody(new byte[0], false, false);
    }
  }

  /**
   * Reads a non-2xx body as a page is (the stall bound, the cancellation, gzip), and at most
   * {@value #MAX_ERROR_BODY} bytes of it: the status decides the request whatever the body does.
   */
  private ErrorBody readErrorBody(
      URI target, HttpResponse<InputStream> response, Endpoint endpoint, Cancellation cancellation)
      throws InterruptedException {
    Response body;
    try {
      body = response(target, response, endpoint, () -> {});
    } catch (SourceException e) {
      return new ErrorBody(new byte[0], false, true);
    }
    try (body;
        Cancellation.Registration cancel = cancellation.onCancel(body::close)) {
      return new ErrorBody(body.body().readNBytes(MAX_ERROR_BODY), false, true);
    } catch (IOException | RuntimeException e) {
      cancellation.throwIfCancelled();
      return new ErrorBody(new byte[0], body.guard().stalled(), true);
    }
  }

  /** The error text at {@code error_at} of a non-2xx JSON body, quoted; empty without one. */
  private static String errorText(ErrorBody body, Endpoint endpoint) {
    if ((endpoint.errorAt().isEmpty() && endpoint.lister().isEmpty()) || !body.read()) {
      return "";
    }
    if (body.stalled()) {
      return " (its body stalled for timeout_secs " + endpoint.timeoutSecs() + ")";
    }
    if (endpoint.errorAt().isEmpty()) {
      return S3ErrorText.quoted(body.bytes());
    }
    try {
      return ErrorText.quoted(JSON.readTree(body.bytes()).at(endpoint.errorAt().get()));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  /** Whether {@code e} is a gzip body that lied (cut short, or a trailer that does not match). */
  public static boolean isBadGzip(IOException e) {
    return e instanceof GunzippedBody.BadGzip;
  }

  public static String failure(IOException e) {
    if (e instanceof GunzippedBody.BadGzip) {
      return e.getMessage();
    }
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
