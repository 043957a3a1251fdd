package dfe.fetcher.rest.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpHeaders;

/**
 * A 2xx response whose body is being read: gunzipped when the server sent it gzipped, closed when
 * it stalls past the endpoint's timeout. Closing it releases the connection. An answer whose status
 * the endpoint's {@code errors.ignore_status} lists is one too, {@linkplain #ignored() ignored},
 * with an empty body.
 *
 * @param uri the URI as requested, without credentials
 */
public record Response(URI uri, int status, HttpHeaders headers, InputStream body, StallGuard guard)
    implements AutoCloseable {

  /**
   * Whether this is an answer {@code errors.ignore_status} lists ("nothing here"), not a page: its
   * body was not read.
   */
  public boolean ignored() {
    return status / 100 != 2;
  }

  @Override
  public void close() {
    try {
      body.close();
    } catch (IOException ignored) {
      // The exchange is over either way.
    }
  }
}
