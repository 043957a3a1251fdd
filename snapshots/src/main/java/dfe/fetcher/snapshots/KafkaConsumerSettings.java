package dfe.fetcher.snapshots;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The consumer settings of every topic the {@code snapshots} commands read: the user's {@code
 * --consumer-property} values, with what reading frames needs put over them (byte arrays, no
 * automatic commit, never an offset reset), and read committed unless they say otherwise.
 *
 * @param bootstrapServers {@code --bootstrap-server}
 * @param properties {@code --consumer-property}, as given
 */
record KafkaConsumerSettings(String bootstrapServers, Map<String, String> properties) {

  /** For reading as consumer group {@code group}, which commits offsets itself. */
  Map<String, Object> inGroup(String group) {
    Map<String, Object> settings = common();
    settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    return settings;
  }

  /** For reading in no group, whatever the properties say, so no one's position moves. */
  Map<String, Object> withoutGroup() {
    Map<String, Object> settings = common();
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    return settings;
  }

  private Map<String, Object> common() {
    Map<String, Object> merged = new HashMap<>(properties);
    merged.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    merged.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    merged.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    merged.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    merged.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    // A transactional writer (Kafka Connect exactly once) aborts frames it will write again: they
    // are no dump's frames. An explicit isolation.level=read_uncommitted still reads them.
    merged.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    // Never jump: a committed offset or frames that retention deleted are an error to report,
    // not frames to skip.
    merged.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    return merged;
  }
}
