import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutionException;

/**
 * Reads pages 1 to PAGES of BASE_URL/pages/N, in order, with the JDK's HttpClient as the REST
 * source uses it (a client of default version, no redirects; {@code sendAsync} and a wait for its
 * answer; each body read as a stream into a 64 KiB buffer), and throws the bytes away: the limit
 * of the REST dump that the client itself sets, before any decoding. With {@code send} it uses the
 * blocking {@code send} instead. Prints the bytes it read; fails on any status but 200.
 *
 * <p>Usage: java HttpClientPages.java BASE_URL PAGES [send]
 */
public class HttpClientPages {
  public static void main(String[] args) throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    int pages = Integer.parseInt(args[1]);
    boolean blocking = args.length > 2 && args[2].equals("send");
    byte[] buffer = new byte[64 * 1024];
    long bytes = 0;
    for (int page = 1; page <= pages; page++) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(args[0] + "/pages/" + page)).build();
      HttpResponse<InputStream> response;
      try {
        response =
            blocking
                ? client.send(request, HttpResponse.BodyHandlers.ofInputStream())
                : client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).get();
      } catch (ExecutionException e) {
        throw new IOException("page " + page, e.getCause());
      }
      try (InputStream body = response.body()) {
        if (response.statusCode() != 200) {
          throw new IOException("page " + page + ": status " + response.statusCode());
        }
        for (int read = body.read(buffer); read >= 0; read = body.read(buffer)) {
          bytes += read;
        }
      }
    }
    System.out.println(bytes);
  }
}
