package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code json_array} bounds each element by {@code max_page_bytes} while it reads it: an element
 * longer than that fails the page before it is held, however much more the server would send.
 */
class LargeArrayElementTest {

  private static final long ELEMENT_BYTES = 50L * 1024 * 1024;
  private static final int LIMIT = 1024 * 1024;

  private ApiServer server;
  private final AtomicLong sent = new AtomicLong();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection dump() {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               max_page_bytes: %d}
        """
            .formatted(server.url(), LIMIT));
  }

  /**
   * {@code [{"id":1},{"f0":"xx..","f1":"xx..",...}]}, the second element about 50 MB, generated as
   * it is sent and counted; the server stops when the client hangs up.
   */
  private void streamOneHugeElement(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0);
    byte[] field = new byte[1000];
    Arrays.fill(field, (byte) 'x');
    try (OutputStream out = exchange.getResponseBody()) {
      write(out, "[{\"id\":1},{\"id\":2");
      for (long i = 0; sent.get() < ELEMENT_BYTES; i++) {
        write(out, ",\"f" + i + "\":\"");
        out.write(field);
        sent.addAndGet(field.length);
        write(out, "\"");
      }
      write(out, "}]");
    } catch (IOException hungUp) {
      // The client failed the page and closed the body: what it asked for.
    }
  }

  private void write(OutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.write(bytes);
    sent.addAndGet(bytes.length);
  }

  @Test
  void anElementLongerThanMaxPageBytesFailsBeforeTheServerHasSentIt() throws Exception {
    server.on("/assets", this::streamOneHugeElement);

    RecordingSink sink = RestFixture.read(dump(), "assets");
    long sentWhenFailed = sent.get();

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets: element 1 is longer than max_page_bytes "
                + LIMIT);
    assertThat(sentWhenFailed).isLessThan(ELEMENT_BYTES / 2);
  }

  @Test
  void aSmallGzipBodyThatExpandsIntoOneHugeStringFailsNamingTheLimit() throws Exception {
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
      gzip.write("[{\"id\":\"".getBytes(StandardCharsets.UTF_8));
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) 'y');
      for (long written = 0; written < ELEMENT_BYTES; written += chunk.length) {
        gzip.write(chunk);
      }
      gzip.write("\"}]".getBytes(StandardCharsets.UTF_8));
    }
    server.on(
        "/assets",
        ApiServer.send(200, "application/json", gzipped.toByteArray(), "Content-Encoding", "gzip"));

    RecordingSink sink = RestFixture.read(dump(), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets: element 0 is longer than max_page_bytes "
                + LIMIT);
  }
}
