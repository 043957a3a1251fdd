package dfe.fetcher.file.tail;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;

/**
 * How long the oldest byte of a followed file that is not read yet has been there: the lag of a
 * tail unit in time rather than bytes.
 *
 * <p>Each read tells it the file's size and when the file was last written (its modification time):
 * every byte below that size was written by then. The age of the byte at the unit's offset is
 * measured from the first such observation that covered it, so the age is a lower bound (the byte
 * may be older, by up to the time between two reads) and it does not drop while a writer keeps
 * appending behind it, as {@code now - mtime} would. A file read to its size is 0. At most {@link
 * #MAX_STEPS} observations are kept per file: beyond that, new bytes are dated by the newest kept
 * observation, which can only make them older than they are, never younger.
 */
final class UnreadAge {

  static final int MAX_STEPS = 32;

  private record Step(long size, Instant writtenBy) {}

  private final ArrayDeque<Step> steps = new ArrayDeque<>();

  /** The file is {@code size} bytes long, all written by {@code writtenBy}. */
  void observe(long size, Instant writtenBy) {
    Step newest = steps.peekLast();
    if (newest != null && size < newest.size()) {
      steps.clear(); // truncated: what it held is gone
      newest = null;
    }
    if (newest == null || size > newest.size()) {
      if (steps.size() == MAX_STEPS) {
        steps.pollLast();
        steps.addLast(new Step(size, newest.writtenBy()));
      } else {
        steps.addLast(new Step(size, writtenBy));
      }
    }
  }

  /**
   * The age at {@code now} of the byte at {@code offset}: zero when the file is read to its end.
   */
  Duration at(long offset, Instant now) {
    while (!steps.isEmpty() && steps.peekFirst().size() <= offset) {
      steps.pollFirst();
    }
    Step oldestUnread = steps.peekFirst();
    if (oldestUnread == null || !oldestUnread.writtenBy().isBefore(now)) {
      return Duration.ZERO;
    }
    return Duration.between(oldestUnread.writtenBy(), now);
  }
}
