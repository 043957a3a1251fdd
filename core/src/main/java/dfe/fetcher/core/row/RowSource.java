package dfe.fetcher.core.row;

import java.util.Optional;

/**
 * A bound unit of a source: knows what to read and how to decode it, and nothing about topics,
 * transports or checkpoint files.
 *
 * <p>{@link #read} reads what lies past {@code checkpoint} (everything, for a dump store) and
 * pushes it into the sink, in order, on the calling thread, and returns when there is nothing more
 * this tick. It never holds a whole part in memory. When the input is bad it throws a {@link
 * SourceException} naming the place (file and line, URL, table); the parts it already ended stay
 * ended. A source may be read again on the next tick, and by one tick at a time; it keeps no state
 * between reads except what it was configured with and what its connection opened.
 *
 * <p>Cancellation: whatever {@code read} blocks in (a statement, a request, a back-off) it
 * registers with {@code cancellation}, so a stop or a reload ends the read promptly; once cancelled
 * (or interrupted) it throws {@link InterruptedException}, closing what it opened. {@code
 * checkpoint} is always of the unit's own {@link Mark.Kind}: the driver treats a checkpoint of
 * another kind as none before calling.
 */
public interface RowSource {

  void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException;

  /**
   * Reads as {@link #read} without a checkpoint, for a unit whose checkpoint exists but cannot be
   * read (a corrupted cursor file): the driver calls this instead of {@code read}, on each tick
   * until the unit commits a mark again. A lost checkpoint is not a first start: whatever the unit
   * had read may land again, but nothing it had not read may be passed over. The default is {@code
   * read(Optional.empty(), ...)}, right for a source whose first read takes everything there is (a
   * dump, a database tail from the table's first key) or starts at a time it was configured with (a
   * REST window's {@code lookback}). A source whose first read skips what is already there (a file
   * tail with {@code read_from: end}) reads from the start instead, and says so in its log.
   */
  default void readAfterLostCheckpoint(RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    read(Optional.empty(), sink, cancellation);
  }

  /**
   * Asks the source to run {@code wake} whenever it has likely got something to read before its
   * next tick (a tailed file was written), so the scheduler can read it at once instead of at the
   * end of the interval. A wake is only a hint: it may come when there is nothing new, and the
   * interval still holds when none comes. {@code wake} returns at once and may be run on any
   * thread. Most sources cannot tell and ignore it, which is the default; a source that can stops
   * running it once it is closed.
   */
  default void wakeOn(Runnable wake) {}
}
