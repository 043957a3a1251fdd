package dfe.fetcher.snapshots;

import dfe.fetcher.snapshots.apply.SnapshotApplier;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads a dump topic for {@code snapshots apply}: every partition, from the group's committed
 * offsets (the beginning where it has none), to the end offsets it had at start or, following,
 * until stopped. After each poll the applier settles and the offsets it allows are committed
 * synchronously: never past a frame of a snapshot still waiting to be swapped in.
 *
 * <p>Partitions are assigned, not subscribed: one apply process per table and group. Partitions
 * added to the topic while following are not picked up until a restart.
 */
final class KafkaApplyInput {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(500);

  /** The topic could not be read or the offsets not committed. */
  static final class ReadFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReadFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final String topic;
  private final String group;
  private final Map<String, Object> settings;

  KafkaApplyInput(KafkaConsumerSettings consumer, String topic, String group) {
    this.topic = topic;
    this.group = group;
    this.settings = consumer.inGroup(group);
  }

  /**
   * Applies what the topic holds; returns when at the end offsets (or, following, when stopped).
   */
  void run(SnapshotApplier applier, FrameInput input, boolean follow, AtomicBoolean stop)
      throws SQLException {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      CountDownLatch stopped = new CountDownLatch(1);
      Thread hook =
          new Thread(
              () -> {
                stop.set(true);
                consumer.wakeup();
                // Let the reader finish the swap or commit it is in; bounded.
                awaitQuietly(stopped);
              },
              "dfe-fetcher-apply-stop");
      if (follow) {
        Runtime.getRuntime().addShutdownHook(hook);
      }
      try {
        read(consumer, applier, input, follow, stop);
      } catch (WakeupException e) {
        // Stopped while following: what was committed stands.
      } finally {
        stopped.countDown();
        if (follow && !stop.get()) {
          Runtime.getRuntime().removeShutdownHook(hook);
        }
      }
    } catch (KafkaException e) {
      throw new ReadFailedException(
          topic + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  private void read(
      KafkaConsumer<byte[], byte[]> consumer,
      SnapshotApplier applier,
      FrameInput input,
      boolean follow,
      AtomicBoolean stop)
      throws SQLException {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, TIMEOUT);
    if (infos == null || infos.isEmpty()) {
      throw new ReadFailedException(topic + ": no such topic", null);
    }
    List<TopicPartition> partitions = new ArrayList<>();
    for (PartitionInfo info : infos) {
      partitions.add(new TopicPartition(topic, info.partition()));
    }
    consumer.assign(partitions);
    Map<TopicPartition, OffsetAndMetadata> committed =
        consumer.committed(new HashSet<>(partitions), TIMEOUT);
    Map<Integer, Long> lastCommitted = new HashMap<>();
    for (TopicPartition partition : partitions) {
      OffsetAndMetadata offset = committed.get(partition);
      if (offset == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, offset.offset());
        lastCommitted.put(partition.partition(), offset.offset());
      }
    }
    Map<TopicPartition, Long> endOffsets =
        follow ? Map.of() : consumer.endOffsets(partitions, TIMEOUT);
    while (!stop.get()) {
      if (!follow && atEnd(consumer, partitions, endOffsets)) {
        break;
      }
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        applier.at(record.partition(), record.offset());
        input.acceptMessage(topic, record.partition(), record.offset(), record.value());
      }
      applier.settle();
      commit(consumer, partitions, applier, lastCommitted);
    }
  }

  private void commit(
      KafkaConsumer<byte[], byte[]> consumer,
      List<TopicPartition> partitions,
      SnapshotApplier applier,
      Map<Integer, Long> lastCommitted) {
    Map<Integer, Long> positions = new HashMap<>();
    for (TopicPartition partition : partitions) {
      positions.put(partition.partition(), consumer.position(partition, TIMEOUT));
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    applier
        .committable(positions)
        .forEach(
            (partition, offset) -> {
              if (!offset.equals(lastCommitted.get(partition))) {
                offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(offset));
              }
            });
    if (!offsets.isEmpty()) {
      try {
        consumer.commitSync(offsets, TIMEOUT);
      } catch (KafkaException e) {
        throw new ReadFailedException(
            "group " + group + ": committing offsets failed: " + e.getMessage(), e);
      }
      offsets.forEach(
          (partition, offset) -> lastCommitted.put(partition.partition(), offset.offset()));
    }
  }

  private static boolean atEnd(
      KafkaConsumer<byte[], byte[]> consumer,
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> endOffsets) {
    Set<TopicPartition> unfinished = new HashSet<>();
    for (TopicPartition partition : partitions) {
      if (consumer.position(partition, TIMEOUT) < endOffsets.get(partition)) {
        unfinished.add(partition);
      }
    }
    return unfinished.isEmpty();
  }

  private static void awaitQuietly(CountDownLatch stopped) {
    try {
      stopped.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
