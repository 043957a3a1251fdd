package dfe.fetcher.connect;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * When each unit's last tick began, as the offsets of its records say ({@value
 * ConnectTransport#TICK_STARTED}), so a task that starts (a restart, a rebalance, a new worker)
 * ticks a unit when its interval says it is due rather than every unit at once. A unit whose last
 * tick landed nothing (an idle tail) or that never ran has no such time and is due at once.
 */
final class LastTicks {

  private final OffsetStorageReader offsets;

  LastTicks(OffsetStorageReader offsets) {
    this.offsets = offsets;
  }

  /** When the last tick of {@code store} that landed a record began, in epoch milliseconds. */
  OptionalLong startedMillis(String store) {
    Map<String, Object> offset = offsets.offset(ConnectTransport.partitionOf(store));
    Object started = offset == null ? null : offset.get(ConnectTransport.TICK_STARTED);
    return started instanceof Number number
        ? OptionalLong.of(number.longValue())
        : OptionalLong.empty();
  }

  /**
   * When {@code store} is next due: {@code interval} after its last tick began, not before {@code
   * now}, and never more than {@code interval} after it (a worker's clock ahead of this one's).
   */
  long dueMillis(String store, Duration interval, long now) {
    OptionalLong started = startedMillis(store);
    if (started.isEmpty()) {
      return now;
    }
    long due = started.getAsLong() + interval.toMillis();
    return Math.min(Math.max(due, now), now + interval.toMillis());
  }
}
