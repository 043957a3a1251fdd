package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --once} over a REST queue unit against a real local server answering in Pub/Sub's
 * shapes: the driver's own {@code awaitLanded} holds the acknowledgement until the rows are in the
 * landing file, and the unit commits no checkpoint.
 */
class RestQueueRunOnceTest {

  private static final String PULL = "/v1/projects/p1/subscriptions/s1:pull";
  private static final String ACK = "/v1/projects/p1/subscriptions/s1:acknowledge";

  @TempDir Path directory;
  private FetcherWorkspace workspace;
  private HttpServer server;
  private final AtomicInteger pulls = new AtomicInteger();
  private final List<String> acks = new CopyOnWriteArrayList<>();

  /** What the landing file held when each acknowledgement arrived. */
  private final List<List<String>> landedAtAck = new CopyOnWriteArrayList<>();

  private volatile int ackStatus = 200;

  @BeforeEach
  void start() throws Exception {
    workspace = new FetcherWorkspace(directory);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          if (path.equals(PULL)) {
            answer(
                exchange,
                200,
                pulls.getAndIncrement() == 0
                    ? "{\"receivedMessages\":[" + message("a1", 1) + "," + message("a2", 2) + "]}"
                    : "{}");
          } else if (path.equals(ACK)) {
            landedAtAck.add(workspace.lines("lab_land"));
            acks.add(body);
            answer(
                exchange, ackStatus, ackStatus == 200 ? "{}" : "{\"error\":{\"message\":\"no\"}}");
          } else {
            answer(exchange, 404, "{}");
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static String message(String ackId, int n) {
    String data =
        Base64.getEncoder().encodeToString(("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8));
    return "{\"ackId\":\""
        + ackId
        + "\",\"message\":{\"data\":\""
        + data
        + "\",\"messageId\":\"m"
        + n
        + "\"}}";
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private Path config() {
    return workspace.config(
        FetcherWorkspace.HEADER
            + """
            sources:
              rest:
                lab:
                  topic: lab
                  profile:
                    base_url: "http://127.0.0.1:%d"
                    retry: {max_retries: 0}
                    endpoints:
                      - unit: pull
                        shape: tail
                        method: POST
                        path: %s
                        body: {maxMessages: 10, returnImmediately: true}
                        rows: {decoder: json_at, at: /receivedMessages, allow_missing: true,
                               builder: pubsub_message}
                        construct:
                          queue:
                            ack_at: /ackId
                            ack_request:
                              path: %s
                              body: {ackIds: "{{ ack_ids }}"}
            """
                .formatted(server.getAddress().getPort(), PULL, ACK));
  }

  @Test
  void theMessagesAreAcknowledgedOnlyOnceTheirRowsAreInTheLandingFile() throws Exception {
    CliRun run = CliRun.of("run", "--config", config().toString(), "--once");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(acks).containsExactly("{\"ackIds\":[\"a1\",\"a2\"]}");
    assertThat(landedAtAck).hasSize(1);
    assertThat(landedAtAck.get(0))
        .hasSize(2)
        .satisfiesExactly(
            line -> assertThat(line).contains("\"n\":1").contains("\"ackId\":\"a1\""),
            line -> assertThat(line).contains("\"n\":2").contains("\"ackId\":\"a2\""));
    assertThat(pulls).hasValue(2);
    assertThat(Files.exists(workspace.state().resolve("test.lab.pull.json"))).isFalse();
  }

  @Test
  void aFailedAcknowledgementFailsTheRunNamingTheAckRequest() throws Exception {
    ackStatus = 500;

    CliRun run = CliRun.of("run", "--config", config().toString(), "--once");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.errLines())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("unit lab.pull failed: ")
                    .contains("answered 500")
                    .contains("construct.queue.ack_request of 2 ack ids"));
    assertThat(workspace.lines("lab_land")).hasSize(2);
    assertThat(pulls).hasValue(1);
  }
}
