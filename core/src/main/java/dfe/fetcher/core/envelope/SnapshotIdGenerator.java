package dfe.fetcher.core.envelope;

import java.util.UUID;

/** Mints the {@code snapshot_id} of a dump. Implementations are thread-safe. */
@FunctionalInterface
public interface SnapshotIdGenerator {

  /**
   * A new id for a dump that starts at {@code epochMillis}. Ids are distinct; {@link
   * UuidV7Generator} also makes them sort in minting order.
   */
  UUID mint(long epochMillis);
}
