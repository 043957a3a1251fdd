package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;

/**
 * The filter step of the tick: on a dump it sees the row frame, on a tail unit the record. Returns
 * whether the row is kept; a dropped row of a dump gives its seq back.
 */
@FunctionalInterface
public interface RowFilterStage {

  RowFilterStage KEEP_ALL =
      new RowFilterStage() {
        @Override
        public boolean keep(byte[] json) {
          return true;
        }

        @Override
        public boolean keepRow(Frame.Row frame) {
          return true;
        }
      };

  /** Whether the row whose JSON payload (a record, or an encoded row frame) is kept. */
  boolean keep(byte[] json);

  /**
   * Whether a dump's row frame is kept: the same verdict as {@link #keep} on the encoded frame. A
   * stage that can judge the frame from its parts overrides this, so a frame is only encoded for
   * the rows that land.
   */
  default boolean keepRow(Frame.Row frame) {
    return keep(FrameCodec.encode(frame));
  }
}
