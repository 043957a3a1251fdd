package dfe.fetcher.rest;

import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.auth.Authorizer;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.auth.Origin;
import dfe.fetcher.rest.auth.PerUnitCredentials;
import dfe.fetcher.rest.construct.UnitReader;
import dfe.fetcher.rest.http.BudgetGate;
import dfe.fetcher.rest.http.RateLimit;
import dfe.fetcher.rest.http.Requester;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.WindowSpec;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceRuntime;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * An opened REST instance: one HTTP client (HTTP/1.1 and 2, no automatic redirects: {@link
 * Requester} follows them within the base origin), one watchdog thread for stalled bodies, one
 * requester and credential cache per origin the units' {@code base_url}s name (one for a {@code
 * base_url} without {@code {{ unit.name }}} in its host), one {@link BudgetGate} all of them share
 * (the instance's {@code rate} and {@code max_concurrent_requests}), and a source per enabled
 * endpoint, each with its own rate limit for its life, which its constructs' requests share.
 */
final class OpenRestConnection implements OpenConnection {

  private final ScheduledExecutorService watchdog;

  /** By origin and the credentials the unit carries there ({@link PerUnitCredentials}). */
  private final Map<List<Object>, Requester> requesters = new HashMap<>();

  private final Map<String, RowSource> sources = new LinkedHashMap<>();

  /**
   * @throws SourceException when the instance's TLS settings cannot be used, naming the setting
   */
  OpenRestConnection(RestConnection connection, SourceRuntime runtime) throws SourceException {
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "dfe-rest-watchdog-" + connection.id());
              thread.setDaemon(true);
              return thread;
            });
    int connectTimeout = timeoutSecs(connection);
    HttpClient client = client(connection, connectTimeout);
    BudgetGate budget = connection.budget().open(connection.id());
    for (Endpoint endpoint : connection.endpoints()) {
      if (!endpoint.enabled()) {
        continue;
      }
      Origin origin = Origin.of(URI.create(connection.baseUrlOf(endpoint.unit())));
      Credentials credentials = PerUnitCredentials.of(connection.credentials(), endpoint.unit());
      Requester requester =
          requesters.computeIfAbsent(
              List.of(origin, credentials),
              key ->
                  new Requester(
                      client,
                      new Authorizer(
                          credentials,
                          origin,
                          client,
                          runtime.clock(),
                          watchdog,
                          connection.retry(),
                          connectTimeout),
                      origin,
                      connection.retry(),
                      runtime.clock(),
                      watchdog,
                      runtime.metrics(),
                      budget,
                      connection.quota()));
      String source = connection.id() + "." + endpoint.unit();
      UnitReader reader =
          new UnitReader(
              source,
              connection,
              endpoint,
              requester,
              new RateLimit(connection.requestsPerSec()),
              runtime.metrics());
      RowSource unit;
      if (endpoint.shape() == Shape.DUMP) {
        unit = new RestDump(source, reader, runtime.clock());
      } else if (endpoint.constructs().queue().isPresent()) {
        unit = new RestQueue(source, reader, endpoint, runtime.clock());
      } else if (endpoint.window().flatMap(WindowSpec::cursorAt).isPresent()) {
        unit = new RestFieldCursor(source, reader, endpoint, runtime.clock());
      } else {
        unit = new RestWindows(source, reader, endpoint, runtime.clock());
      }
      sources.put(endpoint.unit(), unit);
    }
  }

  /** The longest {@code timeout_secs} of the instance's endpoints: its client's connect bound. */
  static int timeoutSecs(RestConnection connection) {
    return connection.endpoints().stream().mapToInt(Endpoint::timeoutSecs).max().orElse(30);
  }

  /**
   * The instance's HTTP client: no automatic redirects, its TLS and proxy settings.
   *
   * @throws SourceException when the TLS settings cannot be used, naming the setting
   */
  static HttpClient client(RestConnection connection, int connectTimeout) throws SourceException {
    HttpClient.Builder clientBuilder =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(connectTimeout))
            .followRedirects(HttpClient.Redirect.NEVER);
    connection.credentials().reach().configure(clientBuilder);
    return clientBuilder.build();
  }

  @Override
  public RowSource source(String unit) {
    RowSource source = sources.get(unit);
    if (source == null) {
      throw new IllegalArgumentException("no enabled endpoint named " + unit);
    }
    return source;
  }

  /** Requests sent to an origin credentials do not go to, as {@link Authorizer} counts them. */
  long credentialsWithheld() {
    return requesters.values().stream()
        .mapToLong(requester -> requester.authorizer().credentialsWithheld())
        .sum();
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }
}
