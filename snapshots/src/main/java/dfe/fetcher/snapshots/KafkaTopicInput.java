package dfe.fetcher.snapshots;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads every partition of a topic from the beginning to the end offsets it had when reading
 * started, and hands each message to a {@link FrameInput}, named {@code TOPIC:PARTITION:OFFSET}. No
 * consumer group is joined and no offset is committed, so verifying never moves anyone's position.
 */
final class KafkaTopicInput {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /**
   * How long closing the consumer may wait. Reading in no group leaves nothing to commit or leave;
   * what a close would wait for is the fetch sent ahead while the last records were handed over,
   * which the broker holds up to {@code fetch.max.wait.ms} (500 ms) on a topic read to its end.
   */
  private static final Duration CLOSE_TIMEOUT = Duration.ZERO;

  private final Map<String, Object> settings;

  KafkaTopicInput(KafkaConsumerSettings consumer) {
    this.settings = consumer.withoutGroup();
  }

  /** What the client said of a topic it could not read: the kind of failure and its message. */
  private static String problem(KafkaException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** Reads {@code topic} into {@code input}; a topic that cannot be read is reported there. */
  void read(String topic, FrameInput input) {
    KafkaConsumer<byte[], byte[]> consumer;
    try {
      consumer = new KafkaConsumer<>(settings);
    } catch (KafkaException e) {
      input.unreadable(topic, problem(e));
      return;
    }
    try {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, TIMEOUT);
      if (infos == null || infos.isEmpty()) {
        input.unreadable(topic, "no such topic");
        return;
      }
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : infos) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions, TIMEOUT);
      List<TopicPartition> unfinished = new ArrayList<>(partitions);
      unfinished.removeIf(
          partition -> consumer.position(partition, TIMEOUT) >= endOffsets.get(partition));
      consumer.pause(finished(partitions, unfinished));
      long lastProgress = System.nanoTime();
      while (!unfinished.isEmpty()) {
        if (System.nanoTime() - lastProgress > TIMEOUT.toNanos()) {
          input.unreadable(
              topic, "no progress for " + TIMEOUT.toSeconds() + " s on partitions " + unfinished);
          return;
        }
        var records = consumer.poll(Duration.ofMillis(500));
        if (!records.isEmpty()) {
          lastProgress = System.nanoTime();
        }
        for (TopicPartition partition : records.partitions()) {
          long end = endOffsets.get(partition);
          for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
            if (record.offset() < end) {
              input.acceptMessage(topic, record.partition(), record.offset(), record.value());
            }
          }
        }
        List<TopicPartition> done = new ArrayList<>();
        for (TopicPartition partition : unfinished) {
          if (consumer.position(partition, TIMEOUT) >= endOffsets.get(partition)) {
            done.add(partition);
          }
        }
        unfinished.removeAll(done);
        consumer.pause(done);
      }
    } catch (KafkaException e) {
      input.unreadable(topic, problem(e));
    } finally {
      consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
    }
  }

  private static List<TopicPartition> finished(
      List<TopicPartition> all, List<TopicPartition> unfinished) {
    List<TopicPartition> finished = new ArrayList<>(all);
    finished.removeAll(unfinished);
    return finished;
  }
}
