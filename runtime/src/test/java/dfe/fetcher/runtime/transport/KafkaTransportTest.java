package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.testkit.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Kafka transport against a real broker. */
class KafkaTransportTest {

  private static LocalKafka kafka;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  private static OutboundRecord record(String topic, String key, String value) {
    return new OutboundRecord(
        topic,
        Optional.ofNullable(key).map(k -> k.getBytes(StandardCharsets.UTF_8)),
        value.getBytes(StandardCharsets.UTF_8),
        List.of(new OutboundRecord.Header("dfe-kind", "row")));
  }

  private static KafkaTransport transport(TopicCreation creation) {
    return new KafkaTransport(
        kafka.bootstrapServers(),
        // Room for a loaded CI machine (a 5 s delivery timeout expired there once); a topic that
        // does not exist still fails on max.block.ms, well within the test's 30 s.
        Map.of(
            "delivery.timeout.ms", "20000", "request.timeout.ms", "10000", "max.block.ms", "10000"),
        1_000_000,
        creation);
  }

  @Test
  void aBatchIsAcknowledgedOnceEveryRecordLandedWithItsKeyAndHeaders() throws Exception {
    kafka.createTopic("plain_land", 3, Map.of());
    try (KafkaTransport transport = transport(TopicCreation.OFF)) {
      SendResult result =
          transport
              .send(
                  List.of(
                      record("plain_land", "a.b", "{\"n\":1}"), record("plain_land", null, "2")))
              .get();
      assertThat(result.refused()).isEmpty();
    }

    List<ConsumerRecord<byte[], byte[]>> landed = kafka.readAll("plain_land");
    assertThat(landed).hasSize(2);
    ConsumerRecord<byte[], byte[]> keyed =
        landed.stream().filter(r -> r.key() != null).findFirst().orElseThrow();
    assertThat(new String(keyed.key(), StandardCharsets.UTF_8)).isEqualTo("a.b");
    assertThat(new String(keyed.value(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}");
    assertThat(new String(keyed.headers().lastHeader("dfe-kind").value(), StandardCharsets.UTF_8))
        .isEqualTo("row");
  }

  @Test
  void aRecordTheTopicRefusesAsTooLargeIsReportedAndTheRestLand() throws Exception {
    kafka.createTopic("small_land", 1, Map.of("max.message.bytes", "2000"));
    // Random, so compression cannot shrink it under the topic's limit.
    byte[] noise = new byte[6000];
    new Random(1).nextBytes(noise);
    String big = Base64.getEncoder().encodeToString(noise);
    try (KafkaTransport transport = transport(TopicCreation.OFF)) {
      SendResult result =
          transport
              .send(
                  List.of(
                      record("small_land", "k", "before"),
                      record("small_land", "k", big),
                      record("small_land", "k", "after")))
              .get();

      assertThat(result.refused()).hasSize(1);
      assertThat(new String(result.refused().get(0).record().value(), StandardCharsets.UTF_8))
          .isEqualTo(big);
    }
    assertThat(kafka.readAll("small_land"))
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactly("before", "after");
  }

  @Test
  void topicsAreCreatedOnlyWhenAskedTo() throws Exception {
    try (KafkaTransport transport = transport(new TopicCreation(true, 2, (short) 1))) {
      assertThat(transport.send(List.of(record("created_land", "k", "1"))).get().refused())
          .isEmpty();
    }
    assertThat(kafka.readAll("created_land")).hasSize(1);

    try (KafkaTransport transport = transport(TopicCreation.OFF)) {
      assertThat(transport.send(List.of(record("never_created_land", "k", "1"))))
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(TransportException.class)
          .withMessageContaining("never_created_land")
          .withMessageContaining("or the topic does not exist there")
          .withMessageNotContaining("not present in metadata");
    }
  }

  @Test
  void aTopicDeletedUnderTheOutputIsCreatedAgainForALaterBatch() throws Exception {
    try (KafkaTransport transport = transport(new TopicCreation(true, 1, (short) 1))) {
      assertThat(transport.send(List.of(record("deleted_land", "k", "before"))).get().refused())
          .isEmpty();

      kafka.deleteTopic("deleted_land");

      // The first batch after the deletion may fail (the producer's metadata still names the old
      // topic); a later one must land, on the topic created again, as on the first day.
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> lands(transport.send(List.of(record("deleted_land", "k", "after")))));
    }
    assertThat(kafka.readAll("deleted_land"))
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .contains("after")
        .doesNotContain("before");
  }

  private static boolean lands(CompletableFuture<SendResult> send) throws InterruptedException {
    try {
      send.get(30, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  @Test
  void oneUnitsFailedSendDoesNotAbortAnotherUnitsBatchInFlight() throws Exception {
    kafka.createTopic("steady_land", 1, Map.of());
    kafka.createTopic("retried_land", 1, Map.of());
    long producersBefore = producerNetworkThreads();
    // A long linger keeps unit 1's batch waiting in the producer while unit 2 fails and retries.
    try (KafkaTransport transport =
        new KafkaTransport(
            kafka.bootstrapServers(),
            Map.of(
                "linger.ms", "5000",
                "max.block.ms", "2000",
                "delivery.timeout.ms", "30000",
                "request.timeout.ms", "2000"),
            1_000_000,
            TopicCreation.OFF)) {
      CompletableFuture<SendResult> unitOnesBatch =
          CompletableFuture.supplyAsync(
                  () -> transport.send(List.of(record("steady_land", "k", "unit 1")))) // unit 1
              .get(30, TimeUnit.SECONDS);

      assertThat(transport.send(List.of(record("missing_land", "k", "unit 2"))))
          .failsWithin(Duration.ofSeconds(30));
      CompletableFuture<SendResult> unitTwosRetry =
          transport.send(List.of(record("retried_land", "k", "unit 2 again")));

      assertThat(unitOnesBatch).succeedsWithin(Duration.ofSeconds(30));
      assertThat(unitTwosRetry).succeedsWithin(Duration.ofSeconds(30));
      // The producer the failure condemned is closed once its last batch completed.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> producerNetworkThreads() == producersBefore + 1);
    }
    assertThat(kafka.readAll("steady_land"))
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactly("unit 1");
    assertThat(kafka.readAll("retried_land"))
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactly("unit 2 again");
  }

  private static long producerNetworkThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("kafka-producer-network-thread"))
        .count();
  }

  @Test
  void readinessFollowsWhetherTheClusterAnswers() {
    try (KafkaTransport reachable = transport(TopicCreation.OFF)) {
      assertThat(reachable.isReady()).isTrue();
    }
    try (KafkaTransport unreachable =
        new KafkaTransport("127.0.0.1:1", Map.of(), 1000, TopicCreation.OFF)) {
      assertThat(unreachable.isReady()).isFalse();
    }
  }

  @Test
  void aTopicCheckTheClusterDoesNotAnswerSaysTheClusterDidNotAnswer() {
    // Nothing listens on this port (the range is this test's own): no broker ever answers.
    // The check waits as long as a send would: max.block.ms.
    try (KafkaTransport unreachable =
        new KafkaTransport(
            "127.0.0.1:37201",
            Map.of("max.block.ms", "2000"),
            1000,
            new TopicCreation(true, 1, (short) 1))) {
      CompletableFuture<SendResult> sent =
          unreachable.send(
              List.of(
                  new OutboundRecord(
                      "unanswered_land",
                      Optional.empty(),
                      "{}".getBytes(StandardCharsets.UTF_8),
                      List.of())));

      assertThat(sent)
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .satisfies(
              failure ->
                  assertThat(failure.getCause())
                      .isInstanceOf(TransportException.class)
                      .hasMessageStartingWith(
                          "the Kafka cluster at 127.0.0.1:37201 did not answer within 2000 ms,"
                              + " max.block.ms")
                      .hasMessageContaining("topic unanswered_land")
                      .hasMessageNotContaining("creating topic"));
    }
  }

  @Test
  void theTopicCheckWaitsAsLongAsTheProducerWouldBlock() {
    assertThat(TopicAdmin.topicCheckMillis(Map.of())).as("Kafka's default").isEqualTo(60_000);
    assertThat(TopicAdmin.topicCheckMillis(Map.of("max.block.ms", "10000"))).isEqualTo(10_000);
    assertThat(TopicAdmin.topicCheckMillis(Map.of("max.block.ms", "soon")))
        .as("the producer refuses it by name; the check waits the default")
        .isEqualTo(60_000);
  }
}
