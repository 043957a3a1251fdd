package dfe.fetcher.runtime.transport;

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
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
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
 * dead-letter it; any other failure (broker down, timeout, authorization) fails the batch. {@code
 * max.request.size} is derived from the largest record the oversize policy lets through plus room
 * for the envelope, so an allowed frame always fits the producer's limit; a topic's own {@code
 * max.message.bytes} can still refuse it.
 *
 * <p>Producers come in generations. A failed send condemns the generation it happened on: after a
 * failure an idempotent producer may hold sequence state for records that never landed, so the next
 * batch of a caller with nothing in flight starts a new generation (a new producer id). The
 * condemned producer is not closed under the feet of other callers: it is retired, keeps delivering
 * the batches already on it, and is closed (on a thread of its own, bounded) once the last of them
 * has completed. A caller (a sending thread) that still has batches in flight on a retired
 * generation keeps sending there until they have completed, so its batches still land in the order
 * it sent them; one unit's failure never aborts another unit's batches.
 *
 * <p>No lock is held across I/O or a wait: {@link #close} takes the producers out under the lock
 * and closes them after releasing it, and {@link #isReady} takes no lock at all, so {@code /readyz}
 * answers while a close or a slow cluster keeps other threads waiting.
 */
public final class KafkaTransport implements Transport {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaTransport.class);

  /** Room for the frame head, enrichment, key and headers around the largest allowed record. */
  public static final int ENVELOPE_ROOM_BYTES = 64 * 1024;

  /** The producer's {@code batch.size} unless the operator sets one. */
  public static final int PRODUCER_BATCH_BYTES = 256 * 1024;

  private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration READINESS_CACHE = Duration.ofSeconds(2);

  /** How long closing a producer waits for what is in flight on it before aborting it. */
  private static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private static final Duration ADMIN_CLOSE_TIMEOUT = Duration.ofSeconds(5);

  /** How the fetcher creates missing topics, when it is asked to. */
  public record TopicCreation(boolean enabled, int partitions, short replicationFactor) {
    public static final TopicCreation OFF = new TopicCreation(false, 1, (short) -1);
  }

  private final Map<String, Object> producerSettings;
  private final Map<String, Object> adminSettings;
  private final TopicCreation topicCreation;
  private final Set<String> knownTopics = ConcurrentHashMap.newKeySet();

  /**
   * Guards {@link #current}, {@link #retired} and {@link #closed}. Held for bookkeeping and for
   * building a producer (no round trip to the cluster), never while waiting: not by {@link #close},
   * and not at all by {@link #isReady}.
   */
  private final Object lock = new Object();

  private ProducerGeneration current;

  /** Condemned generations that still have batches in flight. */
  private final List<ProducerGeneration> retired = new ArrayList<>();

  private volatile boolean closed;
  private final AtomicReference<Admin> admin = new AtomicReference<>();
  private volatile long readinessCheckedAt;
  private volatile boolean ready;

  /**
   * The producer's settings for the operator's {@code properties}, checked by Kafka's own {@link
   * ProducerConfig} without creating a client, so {@code config-check} refuses what a run would.
   *
   * @throws org.apache.kafka.common.KafkaException when a property is unknown to the producer's
   *     type rules or has a value it refuses (its message may quote the value)
   * @throws IllegalArgumentException when {@code maxRecordBytes} is too large for a request
   */
  public static Map<String, Object> producerSettings(
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
    this.producerSettings = producerSettings(bootstrapServers, properties, maxRecordBytes);

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
    Thread caller = Thread.currentThread();
    ProducerGeneration generation;
    try {
      createMissingTopics(batch);
      generation = lease(caller);
    } catch (RuntimeException e) {
      done.completeExceptionally(failure(batch.get(0).topic(), e));
      return done;
    }
    List<SendResult.Refused> refused = Collections.synchronizedList(new ArrayList<>());
    // One count per record handed to the producer, plus one for this loop: the batch is over, and
    // the generation's lease released, once the loop has ended and every callback has fired.
    AtomicInteger outstanding = new AtomicInteger(1);
    Runnable oneFinished =
        () -> {
          if (outstanding.decrementAndGet() == 0) {
            generation.release(caller);
            done.complete(new SendResult(refused));
          }
        };
    HeaderBytes headerBytes = new HeaderBytes();
    for (OutboundRecord record : batch) {
      if (done.isCompletedExceptionally()) {
        // The batch has failed already; each further send could block for max.block.ms while
        // the producer waits for metadata from a cluster that is not answering.
        break;
      }
      outstanding.incrementAndGet();
      try {
        generation
            .producer()
            .send(
                message(record, headerBytes),
                (metadata, error) -> {
                  if (error instanceof RecordTooLargeException) {
                    refused.add(new SendResult.Refused(record, error.getMessage()));
                  } else if (error != null) {
                    generation.condemn();
                    done.completeExceptionally(failure(record.topic(), error));
                  }
                  oneFinished.run();
                });
      } catch (InterruptException e) {
        // The caller is stopping; the producer itself is as healthy as before.
        outstanding.decrementAndGet();
        done.completeExceptionally(failure(record.topic(), e));
      } catch (RuntimeException e) {
        // A send that throws never calls its callback.
        outstanding.decrementAndGet();
        generation.condemn();
        done.completeExceptionally(failure(record.topic(), e));
      }
    }
    oneFinished.run();
    return done;
  }

  private static ProducerRecord<byte[], byte[]> message(
      OutboundRecord record, HeaderBytes headerBytes) {
    ProducerRecord<byte[], byte[]> message =
        new ProducerRecord<>(record.topic(), null, record.key().orElse(null), record.value());
    List<OutboundRecord.Header> headers = record.headers();
    for (int i = 0; i < headers.size(); i++) {
      OutboundRecord.Header header = headers.get(i);
      message.headers().add(new RecordHeader(header.name(), headerBytes.of(i, header.value())));
    }
    return message;
  }

  /**
   * The UTF-8 of the header values of one batch, reused while the value at a header's position is
   * the same string as in the previous record: the frames of a snapshot share their kind and
   * snapshot id, so those are encoded once a batch instead of once a record. The producer does not
   * change header values, so records may share the arrays.
   */
  private static final class HeaderBytes {
    private final String[] values = new String[4];
    private final byte[][] bytes = new byte[4][];

    byte[] of(int position, String value) {
      if (position >= values.length) {
        return value.getBytes(StandardCharsets.UTF_8);
      }
      if (values[position] != value) {
        values[position] = value;
        bytes[position] = value.getBytes(StandardCharsets.UTF_8);
      }
      return bytes[position];
    }
  }

  @Override
  public boolean isReady() {
    if (closed) {
      return false;
    }
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
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
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
  public void close() {
    List<ProducerGeneration> open = new ArrayList<>();
    synchronized (lock) {
      closed = true;
      if (current != null) {
        open.add(current);
        current = null;
      }
      open.addAll(retired);
      retired.clear();
    }
    long deadline = System.nanoTime() + PRODUCER_CLOSE_TIMEOUT.toNanos();
    for (ProducerGeneration generation : open) {
      generation.closeNow(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
    closeAdmin();
  }

  /**
   * The generation {@code caller}'s next batch goes to, leased until the batch is over: the retired
   * one its earlier batches are still in flight on, if any, so they land in order; otherwise the
   * current one, started anew if a failure condemned it.
   */
  private ProducerGeneration lease(Thread caller) {
    ProducerGeneration condemned = null;
    ProducerGeneration leased = null;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the Kafka output is closed");
      }
      if (current != null && current.isCondemned()) {
        condemned = current;
        retired.add(condemned);
        current = null;
      }
      retired.removeIf(ProducerGeneration::isClosing);
      for (ProducerGeneration generation : retired) {
        if (generation.hasInFlightFrom(caller) && generation.tryLease(caller)) {
          leased = generation;
          break;
        }
      }
      if (leased == null) {
        if (current == null) {
          current = new ProducerGeneration(new KafkaProducer<>(producerSettings));
        }
        // The current generation is closed only by close(), which takes it out first.
        current.tryLease(caller);
        leased = current;
      }
    }
    if (condemned != null) {
      condemned.retire();
    }
    return leased;
  }

  /**
   * The admin client, created on first use outside any lock (creating a client resolves the
   * bootstrap servers, and readiness must never wait on another thread's I/O).
   */
  private Admin admin() {
    Admin existing = admin.get();
    if (existing == null) {
      Admin created = Admin.create(adminSettings);
      if (admin.compareAndSet(null, created)) {
        existing = created;
      } else {
        created.close(Duration.ZERO);
        existing = admin.get();
      }
    }
    if (closed || existing == null) {
      // close() may have run before this client was stored, and not seen it.
      closeAdmin();
      throw new IllegalStateException("the Kafka output is closed");
    }
    return existing;
  }

  private void closeAdmin() {
    Admin open = admin.getAndSet(null);
    if (open != null) {
      open.close(ADMIN_CLOSE_TIMEOUT);
    }
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
      } catch (TimeoutException e) {
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

  /**
   * One producer and the batches leased on it. Its counts change from the producer's network thread
   * in delivery callbacks, so they are atomics and never the transport's lock.
   */
  private static final class ProducerGeneration {

    /** {@link #leases} once the producer is being closed; nothing is leased on it after. */
    private static final int CLOSING = -1;

    private final Producer<byte[], byte[]> producer;
    private final AtomicBoolean condemned = new AtomicBoolean();
    private final AtomicBoolean retired = new AtomicBoolean();
    private final AtomicInteger leases = new AtomicInteger();
    private final Map<Thread, Integer> leasesByCaller = new ConcurrentHashMap<>();

    ProducerGeneration(Producer<byte[], byte[]> producer) {
      this.producer = producer;
    }

    Producer<byte[], byte[]> producer() {
      return producer;
    }

    /** A send on this producer failed: no caller starts on it again. */
    void condemn() {
      condemned.set(true);
    }

    boolean isCondemned() {
      return condemned.get();
    }

    boolean isClosing() {
      return leases.get() < 0;
    }

    boolean hasInFlightFrom(Thread caller) {
      return leasesByCaller.containsKey(caller);
    }

    /** Leases the producer for one batch of {@code caller}, unless it is being closed. */
    boolean tryLease(Thread caller) {
      int count;
      do {
        count = leases.get();
        if (count < 0) {
          return false;
        }
      } while (!leases.compareAndSet(count, count + 1));
      leasesByCaller.merge(caller, 1, Integer::sum);
      return true;
    }

    /** One batch of {@code caller} is over; a retired producer closes after its last one. */
    void release(Thread caller) {
      leasesByCaller.computeIfPresent(caller, (thread, count) -> count == 1 ? null : count - 1);
      if (leases.decrementAndGet() == 0 && retired.get()) {
        closeInBackground();
      }
    }

    /** Taken out of service: closes once nothing is leased on it. */
    void retire() {
      retired.set(true);
      if (leases.get() == 0) {
        closeInBackground();
      }
    }

    /**
     * Closes on a thread of its own: the last release runs on this producer's network thread, which
     * cannot close its own producer, and no caller should wait for it.
     */
    private void closeInBackground() {
      if (leases.compareAndSet(0, CLOSING)) {
        Thread closing =
            new Thread(() -> producer.close(PRODUCER_CLOSE_TIMEOUT), "kafka-producer-retire");
        closing.setDaemon(true);
        closing.start();
      }
    }

    /** Closes now, waiting at most {@code timeout} for what is in flight, then aborting it. */
    void closeNow(Duration timeout) {
      if (leases.getAndSet(CLOSING) != CLOSING) {
        producer.close(timeout);
      }
    }
  }
}
