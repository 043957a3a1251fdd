package dfe.fetcher.runtime.transport;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Producer;

/**
 * One producer and the batches leased on it. Its counts change from the producer's network thread
 * in delivery callbacks, so they are atomics and never the transport's lock.
 */
final class ProducerGeneration {

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
          new Thread(
              () -> producer.close(KafkaTransport.PRODUCER_CLOSE_TIMEOUT), "kafka-producer-retire");
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
