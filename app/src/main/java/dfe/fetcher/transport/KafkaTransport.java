package dfe.fetcher.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lands messages on a Kafka cluster with an idempotent producer and {@code acks=all}.
 *
 * <p>Every record of a batch is sent at once (many in flight, never one round trip per record); the
 * batch's future completes when every delivery callback has fired. A record the broker refuses as
 * too large ({@link RecordTooLargeException}) is listed in the result, so the caller can
 * dead-letter it; any other failure (broker down, timeout, authorization) fails the batch, and the
 * producer is replaced before the next send so a retry starts clean. {@code max.request.size} is
 * derived from the largest record the oversize policy lets through plus room for the envelope, so
 * an allowed frame always fits the producer's limit; a topic's own {@code max.message.bytes} can
 * still refuse it.
 */
public final class KafkaTransport implements Transport {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaTransport.class);

  /** Room for the frame head, enrichment, key and headers around the largest allowed record. */
  static final int ENVELOPE_ROOM_BYTES = 64 * 1024;

  private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration READINESS_CACHE = Duration.ofSeconds(2);

  /** How the fetcher creates missing topics, when it is asked to. */
  public record TopicCreation(boolean enabled, int partitions, short replicationFactor) {
    public static final TopicCreation OFF = new TopicCreation(false, 1, (short) -1);
  }

  private final Map<String, Object> producerSettings;
  private final Map<String, Object> adminSettings;
  private final TopicCreation topicCreation;
  private final Set<String> knownTopics = ConcurrentHashMap.newKeySet();

  /**
   * A producer and whether a send of its own failed. The flag is set from the producer's network
   * thread in delivery callbacks, so it is an atomic and never a lock: closing a producer waits for
   * that thread to run the callbacks of what it aborts. Each producer has its own flag, so the
   * callbacks of a replaced producer cannot condemn its healthy successor.
   */
  private record ProducerHandle(Producer<byte[], byte[]> producer, AtomicBoolean failed) {}

  private ProducerHandle current;
  private boolean closed;
  private Admin admin;
  private volatile long readinessCheckedAt;
  private volatile boolean ready;

  /**
   * @param bootstrapServers the brokers
   * @param properties the operator's producer properties (secrets already revealed); {@code
   *     enable.idempotence} and {@code acks} are always {@code true} and {@code all}
   * @param maxRecordBytes {@code oversize.max_record_bytes}
   */
  public KafkaTransport(
      String bootstrapServers,
      Map<String, String> properties,
      long maxRecordBytes,
      TopicCreation topicCreation) {
    this.topicCreation = topicCreation;
    Map<String, Object> settings = new HashMap<>();
    settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    settings.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    settings.putAll(properties);
    for (String enforced :
        List.of(
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            ProducerConfig.ACKS_CONFIG,
            ProducerConfig.MAX_REQUEST_SIZE_CONFIG)) {
      if (properties.containsKey(enforced)) {
        LOG.warn(
            "event=kafka_property_overridden property={} note=\"the fetcher enforces it\"",
            enforced);
      }
    }
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
    this.producerSettings = Collections.unmodifiableMap(settings);
    // Build the producer's own configuration now, so a bad property fails at startup, naming
    // the property, rather than on every tick.
    new ProducerConfig(producerSettings);

    Map<String, Object> adminProps = new HashMap<>();
    for (Map.Entry<String, String> property : properties.entrySet()) {
      if (AdminClientConfig.configNames().contains(property.getKey())) {
        adminProps.put(property.getKey(), property.getValue());
      }
    }
    adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) READINESS_TIMEOUT.toMillis());
    adminProps.put(
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READINESS_TIMEOUT.toMillis());
    this.adminSettings = Collections.unmodifiableMap(adminProps);
  }

  @Override
  public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    CompletableFuture<SendResult> done = new CompletableFuture<>();
    if (batch.isEmpty()) {
      done.complete(SendResult.ALL_ACKNOWLEDGED);
      return done;
    }
    ProducerHandle sender;
    try {
      createMissingTopics(batch);
      sender = producer();
    } catch (RuntimeException e) {
      done.completeExceptionally(failure(batch.get(0).topic(), e));
      return done;
    }
    List<SendResult.Refused> refused = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger outstanding = new AtomicInteger(batch.size());
    for (OutboundRecord record : batch) {
      if (done.isCompletedExceptionally()) {
        // The batch has failed already; each further send could block for max.block.ms while
        // the producer waits for metadata from a cluster that is not answering.
        break;
      }
      ProducerRecord<byte[], byte[]> message =
          new ProducerRecord<>(record.topic(), null, record.key().orElse(null), record.value());
      for (OutboundRecord.Header header : record.headers()) {
        message
            .headers()
            .add(new RecordHeader(header.name(), header.value().getBytes(StandardCharsets.UTF_8)));
      }
      try {
        sender
            .producer()
            .send(
                message,
                (metadata, error) -> {
                  if (error instanceof RecordTooLargeException) {
                    refused.add(new SendResult.Refused(record, error.getMessage()));
                  } else if (error != null) {
                    sender.failed().set(true);
                    done.completeExceptionally(failure(record.topic(), error));
                  }
                  if (outstanding.decrementAndGet() == 0) {
                    done.complete(new SendResult(refused));
                  }
                });
      } catch (RuntimeException e) {
        sender.failed().set(true);
        done.completeExceptionally(failure(record.topic(), e));
        break;
      }
    }
    return done;
  }

  @Override
  public boolean isReady() {
    long now = System.nanoTime();
    if (now - readinessCheckedAt < READINESS_CACHE.toNanos()) {
      return ready;
    }
    boolean reachable;
    try {
      reachable =
          !admin()
              .describeCluster()
              .nodes()
              .get(READINESS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
              .isEmpty();
    } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
      reachable = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reachable = false;
    }
    ready = reachable;
    readinessCheckedAt = System.nanoTime();
    return reachable;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (current != null) {
      current.producer().close(Duration.ofSeconds(10));
      current = null;
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
      admin = null;
    }
  }

  private ProducerHandle producer() {
    ProducerHandle replaced = null;
    ProducerHandle handle;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the Kafka output is closed");
      }
      if (current != null && current.failed().get()) {
        // After a failed send an idempotent producer may hold sequence state for records that
        // never landed; a new producer (a new producer id) starts the next tick clean.
        replaced = current;
        current = null;
      }
      if (current == null) {
        current = new ProducerHandle(new KafkaProducer<>(producerSettings), new AtomicBoolean());
      }
      handle = current;
    }
    if (replaced != null) {
      replaced.producer().close(Duration.ZERO);
    }
    return handle;
  }

  private synchronized Admin admin() {
    if (admin == null) {
      admin = Admin.create(adminSettings);
    }
    return admin;
  }

  private void createMissingTopics(List<OutboundRecord> batch) {
    if (!topicCreation.enabled()) {
      return;
    }
    for (OutboundRecord record : batch) {
      String topic = record.topic();
      if (knownTopics.contains(topic)) {
        continue;
      }
      try {
        admin()
            .createTopics(
                List.of(
                    new NewTopic(
                        topic, topicCreation.partitions(), topicCreation.replicationFactor())))
            .all()
            .get(READINESS_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        LOG.info(
            "event=topic_created topic={} partitions={} replication_factor={}",
            topic,
            topicCreation.partitions(),
            topicCreation.replicationFactor());
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new TransportException(
              "creating topic " + topic + " failed: " + e.getCause().getMessage(), e.getCause());
        }
      } catch (java.util.concurrent.TimeoutException e) {
        throw new TransportException("creating topic " + topic + " timed out", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted while creating topic " + topic, e);
      }
      knownTopics.add(topic);
    }
  }

  private static TransportException failure(String topic, Throwable error) {
    return new TransportException(
        "sending to topic "
            + topic
            + " failed: "
            + error.getClass().getSimpleName()
            + ": "
            + error.getMessage(),
        error);
  }
}
