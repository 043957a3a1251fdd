package dfe.fetcher.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.awaitility.Awaitility;

/**
 * A real single-node KRaft cluster in this JVM (Kafka's own test kit), one per test class, and the
 * consumer-side reads the tests make of it.
 */
public final class LocalKafka implements AutoCloseable {

  private final KafkaClusterTestKit cluster;

  private LocalKafka(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  public static LocalKafka start() throws Exception {
    return start(false);
  }

  /**
   * A cluster that creates a topic the first time a producer names it, as the single node of {@code
   * scripts/local-kafka.sh} does.
   */
  public static LocalKafka startCreatingTopics() throws Exception {
    return start(true);
  }

  private static LocalKafka start(boolean autoCreateTopics) throws Exception {
    TestKitNodes nodes =
        new TestKitNodes.Builder()
            .setCombined(true)
            .setNumBrokerNodes(1)
            .setNumControllerNodes(1)
            .build();
    KafkaClusterTestKit cluster =
        new KafkaClusterTestKit.Builder(nodes)
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .setConfigProp("auto.create.topics.enable", String.valueOf(autoCreateTopics))
            .setConfigProp("num.partitions", "1")
            .setConfigProp("controlled.shutdown.enable", "false")
            .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return new LocalKafka(cluster);
  }

  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  public void createTopic(String name, int partitions, Map<String, String> configs)
      throws Exception {
    try (Admin admin = cluster.admin()) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
          .all()
          .get();
      // Created is not yet led: a producer that asks for a partition's leader too early can wait
      // out its delivery timeout on a loaded machine. Wait until every partition has one.
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  admin
                      .describeTopics(List.of(name))
                      .allTopicNames()
                      .get()
                      .get(name)
                      .partitions()
                      .stream()
                      .allMatch(partition -> partition.leader() != null));
    }
  }

  /** Deletes {@code name} and waits until no listing of the cluster names it. */
  public void deleteTopic(String name) throws Exception {
    try (Admin admin = cluster.admin()) {
      admin.deleteTopics(List.of(name)).all().get();
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !admin.listTopics().names().get().contains(name));
    }
  }

  /** Stops the broker (the controller keeps running); its port is kept for {@link #startBroker}. */
  public void stopBroker() {
    cluster.brokers().values().forEach(broker -> broker.shutdown());
    cluster.brokers().values().forEach(broker -> broker.awaitShutdown());
  }

  public void startBroker() throws Exception {
    cluster.brokers().values().forEach(broker -> broker.startup());
    cluster.waitForReadyBrokers();
  }

  /** Every record of every partition of {@code topic}, from the beginning to the current end. */
  public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    Properties settings = new Properties();
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("could not read " + topic + " to its end offsets " + end);
        }
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records;
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
