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
    BooleanSupplier stopping) {}
