package dfe.fetcher.row;

import java.util.Optional;

/**
 * A bound unit of a source: knows what to read and how to decode it, and nothing about topics,
 * transports or checkpoints files.
 *
 * <p>{@link #read} reads what lies past {@code checkpoint} (everything, for a dump store) and
 * pushes it into the sink, in order, on the calling thread, and returns when there is nothing more
 * this tick. It never holds a whole part in memory. When the input is bad it throws a {@link
 * SourceException} naming the place (file and line, URL, table); the parts it already ended stay
 * ended. A source may be read again on the next tick; it keeps no state between reads except what
 * it was configured with.
 */
public interface RowSource {

  void read(Optional<Mark> checkpoint, RowSink sink) throws SourceException, InterruptedException;
}
