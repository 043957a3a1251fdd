package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.runtime.transport.LandedFrame;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where a resumable dump continues, from its committed mark and what of its snapshot actually
 * landed: the mark says what was acknowledged, but frames sent and not acknowledged before a kill
 * may have landed too, and numbering them again (a changed row under a seq that landed) is a
 * conflict for every consumer. So the snapshot continues after the last of the frames that landed
 * contiguously from the mark's seq, at the key that frame carries.
 *
 * <p>The read-back must be shown to reach back far enough: it must hold the last frame the mark
 * covers (the row at {@code nextSeq - 1}, or the begin of a snapshot without rows). When it does
 * not, when a seq is missing between frames that landed, when a landed frame carries no key, or
 * when two frames disagree on a seq's key, the snapshot is abandoned: a new one starts (the old one
 * never gets an end), rather than risking a conflict. When the snapshot's end landed, it is done.
 */
final class ResumePoint {

  /** What the next tick does with the open snapshot. */
  enum Outcome {
    /** Continue the snapshot at {@link Resolution#mark}. */
    CONTINUED,
    /** Its end landed: the next tick opens a new snapshot. */
    ENDED,
    /** What landed cannot be trusted to continue from: a new snapshot opens. */
    ABANDONED
  }

  /**
   * @param outcome what happens
   * @param mark where the snapshot continues; present only when {@link Outcome#CONTINUED}
   * @param reason why, in words for the log
   */
  record Resolution(Outcome outcome, Optional<DumpResumeMark> mark, String reason) {}

  private ResumePoint() {}

  /**
   * Resolves {@code mark} (open) against {@code landed}, the frames of its snapshot read back from
   * the output in the order they landed.
   */
  static Resolution of(DumpResumeMark mark, List<LandedFrame> landed) {
    long anchor = mark.nextSeq() - 1;
    boolean anchorSeen = false;
    TreeMap<Long, Optional<String>> beyond = new TreeMap<>();
    for (LandedFrame frame : landed) {
      switch (frame.kind()) {
        case "end" -> {
          return new Resolution(Outcome.ENDED, Optional.empty(), "its end landed");
        }
        case "begin" -> anchorSeen |= anchor < 0;
        case "row", "oversize" -> {
          anchorSeen |= frame.seq() == anchor;
          if (frame.seq() >= mark.nextSeq()) {
            Optional<String> before = beyond.putIfAbsent(frame.seq(), frame.resumeKey());
            if (before != null && !before.equals(frame.resumeKey())) {
              return abandoned("two frames at seq " + frame.seq() + " carry different keys");
            }
          }
        }
        default -> {
          return abandoned("a frame of unknown kind landed at seq " + frame.seq());
        }
      }
    }
    if (!anchorSeen) {
      return abandoned(
          (anchor < 0 ? "its begin" : "the frame at seq " + anchor)
              + ", the last the checkpoint covers, was not found reading back");
    }
    long next = mark.nextSeq();
    Optional<KeysetMark> key = mark.lastKey();
    while (beyond.containsKey(next)) {
      Optional<String> text = beyond.get(next);
      if (text.isEmpty()) {
        return abandoned("the frame at seq " + next + " landed without its key");
      }
      try {
        key = Optional.of(MarkCodec.decodeKey(text.get()));
      } catch (MarkCodec.UnreadableMarkException e) {
        return abandoned(
            "the key of the frame at seq " + next + " does not read: " + e.getMessage());
      }
      next++;
    }
    if (!beyond.isEmpty() && beyond.lastKey() >= next) {
      return abandoned(
          "seq " + next + " did not land but seq " + beyond.lastKey() + " did (a gap)");
    }
    DumpResumeMark resumed =
        new DumpResumeMark(
            mark.snapshotId(), mark.snapshotAt(), next, key, mark.anchorMillis(), false);
    return new Resolution(
        Outcome.CONTINUED,
        Optional.of(resumed),
        (next - mark.nextSeq()) + " frames landed past the checkpoint");
  }

  private static Resolution abandoned(String reason) {
    return new Resolution(Outcome.ABANDONED, Optional.empty(), reason);
  }
}
