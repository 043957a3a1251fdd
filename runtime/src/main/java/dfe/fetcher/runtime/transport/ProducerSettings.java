package dfe.fetcher.runtime.transport;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The settings every producer of the fetcher runs with: the operator's properties over the
 * fetcher's defaults, and what the fetcher enforces over both (idempotence, {@code acks=all}, a
 * request size that fits the largest record the oversize policy lets through).
 */
public final class ProducerSettings {

  /** Room for the frame head, enrichment, key and headers around the largest allowed record. */
  public static final int ENVELOPE_ROOM_BYTES = 64 * 1024;

  /** The producer's {@code batch.size} unless the operator sets one. */
  public static final int PRODUCER_BATCH_BYTES = 256 * 1024;

  private ProducerSettings() {}

  /**
   * The producer's settings for the operator's {@code properties}, checked by Kafka's own {@link
   * ProducerConfig} without creating a client, so {@code config-check} refuses what a run would.
   *
   * @throws org.apache.kafka.common.KafkaException when a property is unknown to the producer's
   *     type rules or has a value it refuses (its message may quote the value)
   * @throws IllegalArgumentException when {@code maxRecordBytes} is too large for a request
   */
  public static Map<String, Object> of(
      String bootstrapServers, Map<String, String> properties, long maxRecordBytes) {
    Map<String, Object> settings = new HashMap<>();
    settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    settings.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    // The tick hands the producer batches of up to 500 frames (batch.max_rows) of a few hundred
    // bytes: 256 KiB holds one of them in a single producer batch, where Kafka's default of 16 KiB
    // cut it into a dozen requests (docs/benchmarks.md). The operator's properties still win.
    settings.put(ProducerConfig.BATCH_SIZE_CONFIG, PRODUCER_BATCH_BYTES);
    settings.putAll(properties);
    settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    long maxRequest = maxRecordBytes + ENVELOPE_ROOM_BYTES;
    if (maxRequest > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException(
          "oversize.max_record_bytes " + maxRecordBytes + " is too large for a Kafka request");
    }
    settings.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, (int) maxRequest);
    settings.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(32L * 1024 * 1024, 4 * maxRequest));
    settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    Map<String, Object> checked = Collections.unmodifiableMap(settings);
    new ProducerConfig(checked);
    return checked;
  }
}
