package dfe.fetcher.runtime.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads back what of one open snapshot landed on a topic: every partition from the first record
 * stamped at or after a time (a producer stamps a record when it is handed over, so every frame
 * handed over after that time is at or after that offset) to the end offsets taken when the read
 * starts, keeping the frames whose key is the store and whose {@code dfe-snapshot-id} is the
 * snapshot. Only headers are looked at. No consumer group: nothing is committed.
 */
final class KafkaReadBack {

  /** How long the whole read may take before it fails. */
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final List<String> CLIENT_PREFIXES = List.of("security.", "sasl.", "ssl.");

  private final Map<String, Object> settings;

  /** A reader with the operator's connection and security properties, nothing of the producer's. */
  KafkaReadBack(String bootstrapServers, Map<String, String> properties) {
    settings = new HashMap<>();
    properties.forEach(
        (name, value) -> {
          if (CLIENT_PREFIXES.stream().anyMatch(name::startsWith)
              || name.equals("client.dns.lookup")) {
            settings.put(name, value);
          }
        });
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "dfe-fetcher-resume-read-back");
  }

  List<LandedFrame> read(String topic, String store, String snapshotId, long sinceMillis) {
    byte[] key = store.getBytes(StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, TIMEOUT).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      Map<TopicPartition, Long> since = new HashMap<>();
      partitions.forEach(partition -> since.put(partition, Math.max(0, sinceMillis)));
      Map<TopicPartition, OffsetAndTimestamp> starts = consumer.offsetsForTimes(since, TIMEOUT);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
      List<TopicPartition> toRead = new ArrayList<>();
      for (TopicPartition partition : partitions) {
        OffsetAndTimestamp start = starts.get(partition);
        if (start != null && start.offset() < ends.get(partition)) {
          toRead.add(partition);
        }
      }
      List<LandedFrame> landed = new ArrayList<>();
      consumer.assign(toRead);
      for (TopicPartition partition : toRead) {
        consumer.seek(partition, starts.get(partition).offset());
      }
      while (toRead.stream()
          .anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
        if (System.nanoTime() > deadline) {
          throw new TransportException(
              "reading back topic " + topic + " for " + store + " took longer than " + TIMEOUT,
              null);
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.offset() >= ends.get(new TopicPartition(topic, record.partition()))
              || !Arrays.equals(key, record.key())) {
            continue;
          }
          Optional<String> id = header(record, "dfe-snapshot-id");
          Optional<String> kind = header(record, "dfe-kind");
          Optional<String> seq = header(record, "dfe-seq");
          if (id.filter(snapshotId::equals).isPresent() && kind.isPresent() && seq.isPresent()) {
            landed.add(
                new LandedFrame(
                    kind.get(),
                    Long.parseLong(seq.get()),
                    header(record, LandedFrame.RESUME_KEY_HEADER)));
          }
        }
      }
      return landed;
    } catch (KafkaException | NumberFormatException e) {
      throw new TransportException(
          "reading back topic "
              + topic
              + " for "
              + store
              + " failed: "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static Optional<String> header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null
        ? Optional.empty()
        : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }
}
