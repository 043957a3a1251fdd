package dfe.fetcher.runtime.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.internals.RecordHeader;
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

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.output");

  /** How long closing a producer waits for what is in flight on it before aborting it. */
  static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final Map<String, Object> producerSettings;
  private final String bootstrapServers;
  private final TopicAdmin topics;
  private final KafkaReadBack readBack;

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
    this.bootstrapServers = bootstrapServers;
    this.producerSettings = ProducerSettings.of(bootstrapServers, properties, maxRecordBytes);
    this.topics = new TopicAdmin(bootstrapServers, properties, topicCreation);
    this.readBack = new KafkaReadBack(bootstrapServers, properties);
  }

  @Override
  public boolean readsBack() {
    return true;
  }

  @Override
  public List<LandedFrame> landedFrames(
      String topic, String store, String snapshotId, long sinceMillis) {
    return readBack.read(topic, store, snapshotId, sinceMillis);
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
      topics.createMissingTopics(batch);
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
    topics.close();
  }

  @Override
  public boolean isReady() {
    return !closed && topics.isReady();
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

  private TransportException failure(String topic, Throwable error) {
    if (error instanceof TransportException named) {
      return named; // the topic admin's, which names the cluster and the topic already
    }
    boolean notInMetadata =
        error instanceof TimeoutException
            && String.valueOf(error.getMessage()).contains("not present in metadata");
    if (notInMetadata || error instanceof UnknownTopicOrPartitionException) {
      // The topic may have been deleted under the fetcher: with create_topics the next batch
      // creates it again rather than trust that it was created once.
      topics.forget(topic);
    }
    if (notInMetadata) {
      // The producer's words for a cluster that never answered (or a topic that does not exist).
      return new TransportException(
          "sending to topic "
              + topic
              + " failed: the Kafka cluster at "
              + bootstrapServers
              + " did not answer within max.block.ms, or the topic does not exist there"
              + " (output.kafka.create_topics creates it)",
          error);
    }
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
