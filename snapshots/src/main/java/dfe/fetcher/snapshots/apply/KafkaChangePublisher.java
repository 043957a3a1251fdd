package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.ChangeEvent;
import dfe.fetcher.core.change.ChangeKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes change events to a topic keyed by the row's key, and a tombstone (the key, no value)
 * after each remove, so a compacted topic keeps the last event of every present key and nothing of
 * a removed one. Idempotent producer with {@code acks=all}.
 */
public final class KafkaChangePublisher implements ChangePublisher {

  private static final int MAX_IN_FLIGHT_FUTURES = 10_000;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final List<Future<RecordMetadata>> pending = new ArrayList<>();

  public KafkaChangePublisher(
      String bootstrapServers, String topic, Map<String, String> producerProperties) {
    Map<String, Object> settings = new HashMap<>(producerProperties);
    settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
    settings.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    this.producer = new KafkaProducer<>(settings);
    this.topic = topic;
  }

  @Override
  public void publish(ChangeEvent event) {
    pending.add(producer.send(new ProducerRecord<>(topic, event.key(), event.toJson())));
    if (event.kind() == ChangeKind.REMOVE) {
      pending.add(producer.send(new ProducerRecord<>(topic, event.key(), null)));
    }
    if (pending.size() >= MAX_IN_FLIGHT_FUTURES) {
      flush();
    }
  }

  @Override
  public void flush() {
    producer.flush();
    try {
      for (Future<RecordMetadata> sent : pending) {
        sent.get();
      }
    } catch (ExecutionException e) {
      throw new ChangePublishingException(
          "changes topic " + topic + " refused an event: " + e.getCause().getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChangePublishingException("interrupted publishing to " + topic, e);
    } finally {
      pending.clear();
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
