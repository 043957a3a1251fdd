package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Time the sink spends (waiting for Kafka's acknowledgements) is not a stalled server. */
class SlowSinkTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A sink whose first row takes longer than timeout_secs to be accepted. */
  private static final class SlowSink extends RecordingSink {
    private final CountDownLatch neverReleased = new CountDownLatch(1);

    @Override
    public void row(Row row) {
      super.row(row);
      if (rowCount() == 1) {
        try {
          // The slow acknowledgement is the behaviour under test: 2.5 timeouts of 1 s.
          neverReleased.await(2_500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Test
  void aSinkThatBlocksLongerThanTheStallTimeoutBetweenRowsDoesNotFailThePage() throws Exception {
    // Longer than every buffer on the way, so the second row needs reads after the slow first.
    String body = "[{\"id\":1}," + " ".repeat(1024 * 1024) + "{\"id\":2}]";
    server.on(
        "/assets", ApiServer.send(200, "application/json", body.getBytes(StandardCharsets.UTF_8)));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              endpoints:
                - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
                   timeout_secs: 1}
            """
                .formatted(server.url()));
    SlowSink sink = new SlowSink();

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      open.source("assets").read(Optional.empty(), sink, new Cancellation());
    }

    assertThat(sink.abortReason()).isEmpty();
    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
  }
}
