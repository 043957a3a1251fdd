package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.zip.GZIPInputStream;

/**
 * One ClickHouse server's HTTP interface: a query is a POST of its text, answered by a stream.
 * Credentials travel as the {@code X-ClickHouse-User} and {@code X-ClickHouse-Key} headers, never
 * in the URL; the URL carries the database, the query id and the settings. Thread-safe.
 *
 * <p>Cancellation: every query has an id; cancelling the tick sends {@code KILL QUERY} for it on a
 * request of its own (without waiting for it), abandons the request when it has no answer yet and
 * closes the answer's stream when it has one. ClickHouse 18.16 does not stop a query whose client
 * went away, so the kill is what frees the server.
 */
final class ClickHouseHttp {

  private static final int MAX_ERROR_BYTES = 64 * 1024;

  private final ClickHouseConnection connection;
  private final HttpClient client;

  /**
   * @throws SourceException when {@code tls.ca_file} cannot be read any more (it was at load)
   */
  ClickHouseHttp(ClickHouseConnection connection) throws SourceException {
    this.connection = connection;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(connection.connectTimeoutSecs()))
            .followRedirects(HttpClient.Redirect.NEVER);
    if (connection.tls().isPresent()) {
      builder.sslContext(connection.tls().get().context());
    }
    this.client = builder.build();
  }

  /** The server's answer to a short query that is read whole ({@link #ask}). */
  record Answer(int status, String body) {}

  /**
   * Sends {@code sql} and reads its whole answer (at most 64 KiB), waiting at most {@code timeout}
   * for it: for a probe, never for a store's query.
   */
  Answer ask(String sql, Duration timeout)
      throws IOException, InterruptedException, SourceException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                uri(connection.database().map(d -> Map.of("database", d)).orElse(Map.of())))
            .timeout(timeout)
            .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
    credentials(request);
    HttpResponse<InputStream> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      return new Answer(
          response.statusCode(),
          new String(body.readNBytes(MAX_ERROR_BYTES), StandardCharsets.UTF_8));
    }
  }

  /**
   * What went wrong reaching the server, for a message: a TLS failure said in words (the
   * certificate not trusted, not for this host), other failures as their class and message.
   */
  String failure(IOException e) {
    if (e instanceof javax.net.ssl.SSLException) {
      String host = connection.url().getHost();
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof java.security.cert.CertPathBuilderException
            || cause instanceof java.security.cert.CertPathValidatorException) {
          return "the TLS handshake with "
              + connection.url()
              + " failed: the server's certificate is not signed by a trusted CA ("
              + connection
                  .tls()
                  .map(tls -> "none of those in " + tls.at() + ", " + tls.caFile())
                  .orElse("none of the JDK's; set tls.ca_file to the bundle of its CA")
              + ")";
        }
        String text = String.valueOf(cause.getMessage());
        if (text.startsWith("No subject alternative") || text.startsWith("No name matching")) {
          return "the TLS handshake with "
              + connection.url()
              + " failed: the server's certificate is not for host "
              + host
              + " ("
              + text
              + ")";
        }
      }
      return "the TLS handshake with "
          + connection.url()
          + " failed: "
          + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
    if (e instanceof java.net.ConnectException) {
      return "cannot connect to "
          + connection.url()
          + ": "
          + (e.getMessage() == null ? "connection refused" : e.getMessage());
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer from " + connection.url() + " in time: " + e.getMessage();
    }
    return "the connection to ClickHouse failed: "
        + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : " " + e.getMessage());
  }

  /** A server error answer: the status and ClickHouse's text, made safe ({@link ServerMessage}). */
  static final class ServerErrorException extends Exception {
    private static final long serialVersionUID = 1L;

    ServerErrorException(int status, String message) {
      super("HTTP " + status + ": " + message);
    }
  }

  /**
   * Sends {@code sql} and returns its answer's stream, once the server answered 200.
   *
   * @param settings ClickHouse settings for this query, sent as URL parameters
   * @throws ServerErrorException when the server answered with an error
   * @throws IOException when the server cannot be reached
   * @throws InterruptedException when the tick was cancelled meanwhile
   */
  InputStream query(
      String sql, String queryId, Map<String, String> settings, Cancellation cancellation)
      throws ServerErrorException, IOException, InterruptedException, SourceException {
    Map<String, String> parameters = new LinkedHashMap<>();
    connection.database().ifPresent(database -> parameters.put("database", database));
    parameters.put("query_id", queryId);
    if (connection.queryTimeoutSecs() > 0) {
      parameters.put("max_execution_time", Integer.toString(connection.queryTimeoutSecs()));
    }
    parameters.putAll(settings);
    if (connection.compression()) {
      parameters.put("enable_http_compression", "1");
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(parameters))
            .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
    if (connection.compression()) {
      request.header("Accept-Encoding", "gzip");
    }
    credentials(request);
    CompletableFuture<HttpResponse<InputStream>> answer =
        client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    HttpResponse<InputStream> response;
    try (Cancellation.Registration ignored =
        cancellation.onCancel(
            () -> {
              kill(queryId);
              answer.cancel(true);
            })) {
      response = answer.get();
    } catch (CancellationException e) {
      throw new InterruptedException("cancelled: " + cancellation.reason());
    } catch (ExecutionException e) {
      cancellation.throwIfCancelled();
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
    } catch (InterruptedException e) {
      kill(queryId);
      answer.cancel(true);
      throw e;
    }
    InputStream body = response.body();
    boolean gzip =
        response.headers().firstValue("Content-Encoding").orElse("").equalsIgnoreCase("gzip");
    if (response.statusCode() != 200) {
      String text;
      try (InputStream in = gzip ? new GZIPInputStream(body) : body) {
        text = new String(in.readNBytes(MAX_ERROR_BYTES), StandardCharsets.UTF_8);
      }
      throw new ServerErrorException(response.statusCode(), ServerMessage.of(text));
    }
    return gzip ? new GZIPInputStream(body, 64 * 1024) : body;
  }

  /** Asks the server to stop query {@code queryId}; does not wait for the answer. */
  void kill(String queryId) {
    // The id is one this class made (letters, digits, '.', '-', '_'): it needs no escaping.
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(Map.of()))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "KILL QUERY WHERE query_id = '" + queryId + "' ASYNC", StandardCharsets.UTF_8));
    try {
      credentials(request);
    } catch (SourceException e) {
      return; // the secret cannot be read now: the query's own failure reports it
    }
    client.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding());
  }

  private void credentials(HttpRequest.Builder request) throws SourceException {
    connection.user().ifPresent(user -> request.header("X-ClickHouse-User", user));
    if (connection.password().isPresent()) {
      Secret password = connection.password().get();
      try {
        request.header("X-ClickHouse-Key", password.reveal());
      } catch (RuntimeException e) {
        throw new SourceException(connection.id() + ": " + e.getMessage(), e);
      }
    }
  }

  private URI uri(Map<String, String> parameters) {
    StringBuilder url = new StringBuilder(connection.url().toString());
    if (url.charAt(url.length() - 1) != '/') {
      url.append('/');
    }
    String separator = "?";
    for (Map.Entry<String, String> parameter : parameters.entrySet()) {
      url.append(separator)
          .append(URLEncoder.encode(parameter.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
      separator = "&";
    }
    return URI.create(url.toString());
  }
}
