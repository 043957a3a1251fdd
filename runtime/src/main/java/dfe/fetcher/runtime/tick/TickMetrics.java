package dfe.fetcher.runtime.tick;

import java.util.OptionalLong;

/**
 * What a tick counts, as it happens. Both runtimes implement it on the fetcher's Prometheus
 * registry ({@code FetcherMetrics}); tests may record it. Every label is a unit's name, a topic or
 * a fixed reason word, never a value from a record or a secret. Implementations are thread-safe:
 * ticks of different units count at once.
 */
public interface TickMetrics {

  /**
   * A dump part of unit {@code store} opened its snapshot; {@code total} is its row count when the
   * source knows it ({@code count_first}). Not called for a snapshot a tick resumes.
   */
  default void partBegun(String store, OptionalLong total) {}

  /** Unit {@code store}'s source is about to read about {@code bytes} of input (file sizes). */
  default void inputAhead(String store, long bytes) {}

  /** Unit {@code store}'s source read {@code bytes} more of the input it announced. */
  default void inputRead(String store, long bytes) {}

  /** A dump part of unit {@code store} closed with an {@code end} that was acknowledged. */
  void snapshotCompleted(String store);

  /** A dump part of unit {@code store} that will have no {@code end}. */
  void snapshotAborted(String store);

  /**
   * {@code count} row frames of unit {@code store} acknowledged; a refused row counts as its stub.
   */
  void rowFrames(String store, long count);

  /** An oversize stub emitted in place of a row of unit {@code store}. */
  void oversizeStub(String store);

  /** {@code count} frames or tail records of unit {@code source} acknowledged on {@code topic}. */
  void landed(String source, String topic, long count);

  /** The counters a tick moves once per row of unit {@code store}, looked up once. */
  RowCounters rowCounters(String store);

  /**
   * A dead-letter entry written; {@code reason} is a fixed word ({@code oversize}, {@code
   * refused}).
   */
  void deadLettered(String source, String reason);

  void tickTook(String source, double seconds);

  void checkpointCommitted(String source);

  void tickFailed(String source);

  /** A tick of unit {@code source} ended successfully (an idle tick included). */
  void tickSucceeded(String source);

  /**
   * A place a dump passed over; {@code reason} is a fixed word ({@code vanished}, {@code
   * bad_file}).
   */
  void fileSkipped(String source, String reason);

  /** One unit's per-row counters. */
  interface RowCounters {

    /** A row the filter dropped (judged false, or not judged under {@code filter_errors: drop}). */
    void filteredOut();

    /** A row the filter could not judge, whether it was kept or dropped. */
    void filterError();
  }
}
