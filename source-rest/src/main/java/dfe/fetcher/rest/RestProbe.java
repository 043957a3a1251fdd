package dfe.fetcher.rest;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.auth.Authorizer;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.auth.Origin;
import dfe.fetcher.rest.auth.PerUnitCredentials;
import dfe.fetcher.rest.http.HeaderValues;
import dfe.fetcher.rest.http.Requester;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.Probe;
import dfe.fetcher.rest.profile.Template;
import dfe.fetcher.rest.profile.TemplateException;
import dfe.fetcher.rest.profile.TemplateValues;
import dfe.fetcher.rest.profile.TemplateWindow;
import dfe.fetcher.rest.profile.UriText;
import dfe.fetcher.rest.profile.WindowSpec;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One probe of an instance's credentials ({@code config-check --probe}): the profile's {@code
 * probe} request, sent once with the credentials and the profile's headers to the {@code base_url}
 * of the unit it names (else the first enabled unit's), not retried and not redirected, bounded by
 * the instance's longest {@code timeout_secs}. The answer's body is discarded unread; nothing is
 * landed and no checkpoint is touched. The outcome names the request (an API key in its query
 * masked) and the status or failure, never a credential.
 */
final class RestProbe {

  /** How long a window the probe of a tail unit asks for: a minute, the least any API indexes. */
  private static final Duration PROBE_WINDOW = Duration.ofMinutes(1);

  private final RestConnection connection;
  private final Probe probe;
  private final SourceRuntime runtime;

  RestProbe(RestConnection connection, Probe probe, SourceRuntime runtime) {
    this.connection = connection;
    this.probe = probe;
    this.runtime = runtime;
  }

  ProbeOutcome send() throws InterruptedException {
    String unit =
        probe
            .unit()
            .orElseGet(
                () ->
                    connection.endpoints().stream()
                        .filter(Endpoint::enabled)
                        .map(Endpoint::unit)
                        .findFirst()
                        .orElse(
                            connection.endpoints().isEmpty()
                                ? ""
                                : connection.endpoints().get(0).unit()));
    int timeout = OpenRestConnection.timeoutSecs(connection);
    HttpClient client;
    try {
      client = OpenRestConnection.client(connection, timeout);
    } catch (SourceException e) {
      return new ProbeOutcome(ProbeOutcome.Verdict.UNREACHABLE, e.getMessage());
    }
    ScheduledExecutorService watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "dfe-rest-probe-" + connection.id());
              thread.setDaemon(true);
              return thread;
            });
    try {
      return send(client, watchdog, unit, timeout);
    } finally {
      watchdog.shutdownNow();
    }
  }

  private ProbeOutcome send(
      HttpClient client, ScheduledExecutorService watchdog, String unit, int timeout)
      throws InterruptedException {
    URI target;
    TemplateValues values;
    try {
      values = values(unit);
      target = uri(baseUrl(unit, values), values);
    } catch (TemplateException | IllegalArgumentException e) {
      return new ProbeOutcome(
          ProbeOutcome.Verdict.UNREACHABLE,
          "the probe's request cannot be made: " + e.getMessage());
    }
    Origin origin = Origin.of(target);
    Authorizer authorizer =
        new Authorizer(
            credentials(unit),
            origin,
            client,
            runtime.clock(),
            watchdog,
            connection.retry(),
            timeout);
    String described = probe.method() + " " + authorizer.describe(target);
    HttpRequest request;
    Cancellation cancellation = new Cancellation();
    try {
      HttpRequest.Builder builder =
          HttpRequest.newBuilder(authorizer.uri(target))
              .timeout(Duration.ofSeconds(timeout))
              .method(probe.method(), HttpRequest.BodyPublishers.noBody());
      for (Map.Entry<String, Template> header : connection.headers().entrySet()) {
        String value = header.getValue().render(values);
        if (!HeaderValues.canCarry(value)) {
          return new ProbeOutcome(
              ProbeOutcome.Verdict.REFUSED,
              described
                  + " cannot be sent: header "
                  + header.getKey()
                  + " holds a character an HTTP header cannot carry");
        }
        builder.header(header.getKey(), value);
      }
      authorizer.authorize(builder, target, cancellation);
      request = builder.build();
    } catch (SecretUnavailableException e) {
      return new ProbeOutcome(ProbeOutcome.Verdict.REFUSED, e.getMessage());
    } catch (SourceException e) {
      return new ProbeOutcome(ProbeOutcome.Verdict.REFUSED, e.getMessage());
    } catch (TemplateException e) {
      return new ProbeOutcome(ProbeOutcome.Verdict.UNREACHABLE, e.getMessage());
    } catch (IllegalArgumentException e) {
      // The client's message quotes the header or URI it refused, a credential perhaps: drop it.
      return new ProbeOutcome(
          ProbeOutcome.Verdict.REFUSED,
          described
              + " cannot be sent: a header or the URI holds what an HTTP request cannot carry");
    }
    int status;
    try {
      status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return new ProbeOutcome(
          ProbeOutcome.Verdict.UNREACHABLE, described + " failed: " + Requester.failure(e));
    }
    if (probe.expects(status)) {
      return new ProbeOutcome(ProbeOutcome.Verdict.OK, described + " answered " + status);
    }
    return new ProbeOutcome(
        ProbeOutcome.Verdict.REFUSED,
        described
            + " answered "
            + status
            + (probe.expectStatus().isEmpty()
                ? ", not 2xx"
                : ", not " + probe.expectStatus().stream().map(String::valueOf).toList())
            + (status == 401 || status == 403 ? " (check the instance's auth)" : ""));
  }

  /** The probe's own {@code base_url} when it names one, else the unit's. */
  private String baseUrl(String unit, TemplateValues values) {
    if (probe.baseUrl().isEmpty()) {
      return connection.baseUrlOf(unit);
    }
    String rendered = probe.baseUrl().get().render(values).replaceAll("/+$", "");
    URI uri = URI.create(rendered);
    if (uri.getHost() == null
        || !("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null) {
      throw new IllegalArgumentException(
          "probe.base_url renders as no http or https URL with a host (and no query or user info)");
    }
    return rendered;
  }

  /**
   * The probe's own {@code auth} over the instance's credentials when it asks any, else the unit's.
   */
  private Credentials credentials(String unit) {
    if (probe.auth().isEmpty()) {
      return PerUnitCredentials.of(connection.credentials(), unit);
    }
    Credentials instance =
        connection.credentials() instanceof PerUnitCredentials perUnit
            ? perUnit.credentials()
            : connection.credentials();
    return instance.narrowed(probe.auth());
  }

  /**
   * What the probe's templates read: the connection's variables and the unit's name; when the probe
   * names a tail unit, also that unit's computed variables and a one-minute window ending where the
   * unit's next window would ({@code settle} behind now), in the unit's format.
   */
  private TemplateValues values(String unit) {
    Optional<Endpoint> tail =
        probe
            .unit()
            .flatMap(
                name ->
                    connection.endpoints().stream()
                        .filter(e -> e.unit().equals(name) && e.window().isPresent())
                        .findFirst());
    if (tail.isEmpty()) {
      return TemplateValues.of(connection.varsOf(unit), unit);
    }
    WindowSpec spec = tail.get().window().orElseThrow();
    Instant end = runtime.clock().instant().minus(spec.settle());
    TemplateWindow window = new TemplateWindow(end.minus(PROBE_WINDOW), end, spec.format());
    return tail.get().values(connection.varsOf(unit), Optional.of(window));
  }

  /** base_url + the probe's path + its query, each value percent-encoded as a listing's are. */
  private URI uri(String baseUrl, TemplateValues values) {
    StringBuilder text =
        new StringBuilder(baseUrl).append(probe.path().render(values, UriText::pathValue));
    String separator = "?";
    for (Map.Entry<String, Template> param : probe.query().entrySet()) {
      text.append(separator)
          .append(UriText.queryValue(param.getKey()))
          .append('=')
          .append(UriText.queryValue(param.getValue().render(values)));
      separator = "&";
    }
    return URI.create(text.toString());
  }
}
