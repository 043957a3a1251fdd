package dfe.fetcher.connect;

import dfe.fetcher.core.checkpoint.CursorStore;
import dfe.fetcher.core.checkpoint.LoadedCursor;
import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.Mark;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each unit's checkpoint as a Connect source offset. {@link #load} answers the mark this task
 * committed last, or else the offset Connect stored for the unit's store (what a task that ran it
 * before, here or on another worker, had landed). {@link #commit} keeps the mark for the next tick:
 * the durable write is Connect's, of the offset {@link ConnectTransport} put on the record that
 * carried the mark, once that record and every one before it were acknowledged.
 */
final class ConnectCursorStore implements CursorStore {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.checkpoint");

  private final OffsetStorageReader offsets;
  private final Map<String, String> storeOfKey;
  private final ConnectTransport transport;
  private final Clock clock;
  private final Map<String, Mark> committed = new ConcurrentHashMap<>();

  /**
   * @param storeOfKey the store of each cursor key ({@code <instance>.<connection>.<unit>})
   */
  ConnectCursorStore(
      OffsetStorageReader offsets,
      Map<String, String> storeOfKey,
      ConnectTransport transport,
      Clock clock) {
    this.offsets = offsets;
    this.storeOfKey = Map.copyOf(storeOfKey);
    this.transport = transport;
    this.clock = clock;
  }

  @Override
  public LoadedCursor find(String key) {
    String store = storeOf(key);
    Mark mine = committed.get(key);
    if (mine != null) {
      transport.startAt(store, Optional.of(ConnectTransport.offsetOf(mine, clock)));
      return new LoadedCursor.Held(mine);
    }
    Map<String, Object> stored = offsets.offset(ConnectTransport.partitionOf(store));
    Object document = stored == null ? null : stored.get(ConnectTransport.MARK);
    if (!(document instanceof String text)) {
      transport.startAt(store, Optional.empty());
      return new LoadedCursor.None();
    }
    transport.startAt(store, Optional.of(stored));
    try {
      return new LoadedCursor.Held(MarkCodec.decode(text.getBytes(StandardCharsets.UTF_8)));
    } catch (MarkCodec.UnreadableMarkException e) {
      LOG.warn(
          "event=checkpoint_unreadable unit={} where=connect_offset error=\"{}\""
              + " action=read_as_lost",
          store,
          e.getMessage());
      return new LoadedCursor.Unreadable("the connect offset of " + store, e.getMessage());
    }
  }

  @Override
  public void commit(String key, Mark mark) {
    storeOf(key);
    committed.put(key, mark);
  }

  private String storeOf(String key) {
    String store = storeOfKey.get(key);
    if (store == null) {
      throw new IllegalArgumentException("no unit of this task has the cursor key " + key);
    }
    return store;
  }
}
