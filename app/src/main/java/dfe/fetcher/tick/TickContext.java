package dfe.fetcher.tick;

import dfe.fetcher.checkpoint.CursorStore;
import dfe.fetcher.dlq.DeadLetterQueue;
import dfe.fetcher.envelope.SnapshotIdGenerator;
import dfe.fetcher.health.FetcherMetrics;
import dfe.fetcher.oversize.OversizePolicy;
import dfe.fetcher.transport.Transport;
import java.time.Clock;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What every unit's tick shares: where records land, the dead-letter queue (empty when {@code
 * dlq.enabled} is false), the oversize policy, batch limits, the cursor store, metrics, time and
 * ids, and whether the service is stopping.
 */
public record TickContext(
    Transport transport,
    Optional<DeadLetterQueue> deadLetters,
    OversizePolicy oversize,
    BatchLimits batchLimits,
    CursorStore cursors,
    FetcherMetrics metrics,
    Clock clock,
    SnapshotIdGenerator ids,
    BooleanSupplier stopping) {

  /**
   * The context a runtime's ticks share under {@code config}: its DLQ (when enabled), oversize
   * policy and batch limits, with the runtime's own transport, cursor store and metrics.
   */
  public static TickContext of(
      dfe.fetcher.config.FetcherConfig config,
      Transport transport,
      CursorStore cursors,
      FetcherMetrics metrics,
      Clock clock,
      BooleanSupplier stopping) {
    return new TickContext(
        transport,
        config.dlq().enabled()
            ? Optional.of(new DeadLetterQueue(config.dlq().topic(), clock))
            : Optional.empty(),
        config.oversize(),
        new BatchLimits(
            config.batch().maxRows(), config.batch().maxBytes(), config.batch().lingerMillis()),
        cursors,
        metrics,
        clock,
        new dfe.fetcher.envelope.UuidV7Generator(),
        stopping);
  }
}
