package dfe.fetcher.transport;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Lands messages on topics.
 *
 * <p>{@link #send} takes a batch and returns at once or after handing it over; the future completes
 * when every record of the batch is acknowledged — durable on the file transport (written and
 * fsynced), acknowledged by the broker on Kafka — or refused as too large (listed in the result).
 * Any other failure completes the future exceptionally with a {@link TransportException}; the
 * caller must then treat every record of the batch as not landed. Batches sent by one caller land
 * in the order they were sent. Implementations are thread-safe.
 */
public interface Transport extends AutoCloseable {

  CompletableFuture<SendResult> send(List<OutboundRecord> batch);

  /** Whether the destination is reachable now; drives {@code /readyz}. */
  boolean isReady();

  /** Releases what the transport holds; records already acknowledged stay landed. */
  @Override
  void close();
}
