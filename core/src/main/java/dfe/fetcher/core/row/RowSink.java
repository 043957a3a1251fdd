package dfe.fetcher.core.row;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a {@link RowSource} pushes what it reads; the driver implements it.
 *
 * <p>A dump source brackets each part (one file, one read of a table, one tick of an endpoint) with
 * {@link #beginPart} and then either {@link #endPart} or {@link #abortPart}. The driver opens a
 * snapshot at {@code beginPart}; at {@code endPart} it sends the {@code end} frame once everything
 * before it is acknowledged, counts the snapshot complete once the end is acknowledged, and commits
 * the part's position if it has one. A tail source calls only {@link #row}, each row carrying its
 * mark, and {@link #advance} when it reached a position without rows.
 *
 * <p>What a source can say about a part:
 *
 * <ul>
 *   <li><b>ended with a position</b> ({@code endPart(Optional.of(mark))}): a file dump's file; the
 *       mark is committed once the end is acknowledged.
 *   <li><b>ended without a position</b> ({@code endPart(Optional.empty())}): a database or REST
 *       dump, which reads the whole store every tick and has nothing to resume from; no checkpoint
 *       is written.
 *   <li><b>aborted on purpose</b> ({@link #abortPart}): the part cannot be finished (a REST dump
 *       that reached {@code max_pages}); no {@code end} is sent, the snapshot counts {@code
 *       aborted}, and the tick is reported failed with the reason once the source returns. A source
 *       may go on with later parts after an abort.
 *   <li><b>skipped on purpose</b> ({@link #skipPart}): the part is bad and the unit is configured
 *       to pass over bad parts; no {@code end} is sent, the snapshot (if one was begun) counts
 *       {@code aborted}, the driver sends a dead letter naming the place and the reason, and the
 *       tick does not fail on its account. A dump source that wants the skip remembered commits it
 *       with the next {@code endPart}'s position, or with {@link #advance} when no part follows.
 * </ul>
 *
 * <p>What a source passes over while it looks for parts (a file that is not a regular file, a
 * directory it cannot list, a file that vanished before it was opened) it reports through {@link
 * #skipped}, once per read, so nothing is left out silently.
 *
 * <p>Any exception a sink method throws (the transport failed, the service is stopping) must
 * propagate out of {@link RowSource#read} unchanged: the source closes what it opened and reads no
 * further.
 */
public interface RowSink {

  /** A dump part starts; {@code total} is the part's row count when the source knows it. */
  void beginPart(OptionalLong total) throws InterruptedException;

  /**
   * One row. A source that can measure a record longer than {@code oversize.max_record_bytes}
   * without holding it passes a {@link Row.NotKept} (its exact length, its first {@code
   * max_dlq_bytes} bytes, its {@code row_key} when found) instead of the record; the driver treats
   * it exactly as an oversize record it was handed whole: on a dump a stub at the next seq plus a
   * DLQ entry, on a tail unit a DLQ entry and nothing landed (the row's mark still counts).
   */
  void row(Row row) throws InterruptedException;

  /**
   * A resumable dump part (its rows carry their keys as {@link KeysetMark}s) finished a chunk: the
   * driver commits where the part stands once every row so far is acknowledged, so a restart
   * continues the same snapshot after the chunk. A driver that cannot resume ignores it.
   */
  default void chunkRead() throws InterruptedException {}

  /**
   * The source is about to read about {@code bytes} of input in this read (a file dump: the sizes
   * of the files it will read), for a progress estimate with {@link #inputRead}; the driver lands
   * nothing of it and checks nothing against it.
   */
  default void inputAhead(long bytes) {}

  /** {@code bytes} more of the input {@link #inputAhead} announced were read. */
  default void inputRead(long bytes) {}

  /**
   * Waits until the transport has acknowledged every row handed so far (their marks committed), so
   * a source that must tell its provider what it delivered (a queue acknowledging its messages)
   * tells it only what has landed: a crash before that redelivers, never loses. A transport that
   * failed or refused makes it throw, as any sink method does; so does a stop. A driver that cannot
   * tell when rows landed refuses it, so no source acknowledges what it cannot know landed.
   */
  default void awaitLanded() throws InterruptedException {
    throw new UnsupportedOperationException(
        "this driver cannot tell when rows landed, so it cannot run a unit that acknowledges them");
  }

  /**
   * The part was read completely.
   *
   * @param position the checkpoint once its frames are landed; empty when the part has nothing to
   *     resume from (no checkpoint is written)
   */
  void endPart(Optional<Mark> position) throws InterruptedException;

  /**
   * The open part cannot be finished: it gets no {@code end}. {@code reason} says why in terms the
   * operator can act on (it names the place, never a record's content).
   */
  void abortPart(String reason) throws InterruptedException;

  /**
   * The open part (if any) is bad and the source passes over it on purpose: no {@code end}, a dead
   * letter naming {@code place} and {@code reason}, and the tick goes on. {@code place} is what the
   * operator looks for (a file's path); {@code reason} says what is wrong with it, never quoting a
   * record. A driver without a dead-letter queue must at least log it.
   */
  default void skipPart(String place, String reason) throws InterruptedException {
    abortPart(place + ": " + reason);
  }

  /**
   * A tail source read something at {@code place} (a file and byte offset) that cannot become a
   * record (a line longer than the unit's limit, not valid UTF-8, not JSON) and reads on. The
   * driver sends a dead letter with {@code reason} and the first {@code max_dlq_bytes} of {@code
   * content} (what the source kept of it), counted with reason {@code bad_record}; the tick does
   * not fail on its account. Its position is committed with the next row's mark or {@link
   * #advance}. {@code reason} names the problem, never the content.
   */
  default void badRecord(String place, String reason, byte[] content) throws InterruptedException {
    skipPart(place, reason);
  }

  /**
   * The source passed over {@code place} while looking for parts, and reads on; {@code reason} is a
   * fixed word for the metric label ({@code not_regular}, {@code outside_base}, {@code unreadable},
   * {@code vanished}, {@code not_settled}). The driver logs and counts it; it does not fail the
   * tick.
   */
  default void skipped(String place, String reason) {}

  /**
   * a tail unit reached {@code mark} with no further rows (a window with no records); a dump
   * source, between parts, reached a position no part ends at (it skipped a bad file last). The
   * driver commits {@code mark} once everything before it is acknowledged.
   */
  void advance(Mark mark) throws InterruptedException;
}
