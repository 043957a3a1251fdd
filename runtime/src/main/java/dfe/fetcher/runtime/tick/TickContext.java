package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.checkpoint.CursorStore;
import dfe.fetcher.core.envelope.SnapshotIdGenerator;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.dlq.DeadLetterQueue;
import dfe.fetcher.runtime.transport.Transport;
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
    TickMetrics metrics,
    Clock clock,
    SnapshotIdGenerator ids,
    BooleanSupplier stopping) {

  /**
   * The context a runtime's ticks share under {@code config}: its DLQ (when enabled), oversize
   * policy and batch limits, with the runtime's own transport, cursor store and metrics.
   */
  public static TickContext of(
      FetcherConfig config,
      Transport transport,
      CursorStore cursors,
      TickMetrics metrics,
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
        new UuidV7Generator(),
        stopping);
  }
}
