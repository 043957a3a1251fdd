package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dfe.fetcher.testkit.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Closing the Kafka transport while the cluster does not answer; the broker stays down after. */
class KafkaTransportCloseTest {

  private static LocalKafka kafka;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  private static OutboundRecord record(String value) {
    return new OutboundRecord(
        "closing_land",
        Optional.empty(),
        value.getBytes(StandardCharsets.UTF_8),
        List.of(new OutboundRecord.Header("dfe-kind", "row")));
  }

  @Test
  void aCloseWaitingForAnUnreachableClusterHoldsUpNeitherReadinessNorSenders() throws Exception {
    kafka.createTopic("closing_land", 1, Map.of());
    // The record lingers in the producer until the close flushes it, to a broker that is gone.
    KafkaTransport transport =
        new KafkaTransport(
            kafka.bootstrapServers(),
            Map.of(
                "linger.ms", "60000",
                "delivery.timeout.ms", "120000",
                "request.timeout.ms", "2000",
                "max.block.ms", "10000"),
            1_000_000,
            TopicCreation.OFF);
    CompletableFuture<SendResult> pending = transport.send(List.of(record("stuck")));
    kafka.stopBroker();

    Thread closing = new Thread(transport::close, "closing-transport");
    closing.start();
    // Blocked in the producer's bounded close, waiting for the record that cannot land.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> closing.getState() == Thread.State.TIMED_WAITING);

    assertThat(assertTimeoutPreemptively(Duration.ofSeconds(1), transport::isReady)).isFalse();
    CompletableFuture<SendResult> late =
        assertTimeoutPreemptively(
            Duration.ofSeconds(1), () -> transport.send(List.of(record("too late"))));
    assertThat(late).failsWithin(Duration.ZERO);
    assertThat(pending).failsWithin(Duration.ofSeconds(30));
    closing.join(Duration.ofSeconds(30).toMillis());
    assertThat(closing.isAlive()).isFalse();
  }
}
