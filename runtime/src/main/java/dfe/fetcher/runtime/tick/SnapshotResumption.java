package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.runtime.transport.LandedFrame;
import dfe.fetcher.runtime.transport.Transport;
import dfe.fetcher.runtime.transport.TransportException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a resumable dump's tick: reads back what of the open snapshot landed and says where the
 * snapshot continues ({@link ResumePoint}), or that a new one opens. Logs one line either way.
 */
final class SnapshotResumption {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.tick");

  /**
   * How far before the mark's anchor the read-back starts: room for the clock stepping back between
   * the frame's numbering and its producer's stamp. A read-back that still misses the anchor frame
   * abandons the snapshot, never continues it.
   */
  static final Duration CLOCK_ROOM = Duration.ofMinutes(1);

  private SnapshotResumption() {}

  /**
   * The mark the tick continues from, or empty for a new snapshot.
   *
   * @throws LandingFailedException when the output cannot be read back now: the tick fails and the
   *     next one tries again, the snapshot kept
   */
  static Optional<DumpResumeMark> resolve(
      Transport transport, BoundUnit unit, DumpResumeMark mark) {
    if (mark.ended()) {
      return Optional.empty();
    }
    List<LandedFrame> landed;
    try {
      landed =
          transport.landedFrames(
              unit.topic(),
              unit.store(),
              mark.snapshotId(),
              mark.anchorMillis() - CLOCK_ROOM.toMillis());
    } catch (TransportException e) {
      throw new LandingFailedException(
          "unit "
              + unit.store()
              + ": snapshot "
              + mark.snapshotId()
              + " not resumed: "
              + e.getMessage(),
          e);
    }
    ResumePoint.Resolution resolution = ResumePoint.of(mark, landed);
    switch (resolution.outcome()) {
      case CONTINUED ->
          LOG.info(
              "event=dump_resumed unit={} snapshot={} checkpoint_seq={} next_seq={} detail=\"{}\"",
              unit.store(),
              mark.snapshotId(),
              mark.nextSeq(),
              resolution.mark().get().nextSeq(),
              resolution.reason());
      case ENDED ->
          LOG.info(
              "event=dump_resume_not_needed unit={} snapshot={} detail=\"{}\"",
              unit.store(),
              mark.snapshotId(),
              resolution.reason());
      case ABANDONED ->
          LOG.warn(
              "event=dump_resume_abandoned unit={} snapshot={} checkpoint_seq={}"
                  + " action=new_snapshot detail=\"{}\"",
              unit.store(),
              mark.snapshotId(),
              mark.nextSeq(),
              resolution.reason());
    }
    return resolution.mark();
  }
}
