package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.filter.FilterVerdict;
import java.util.function.Predicate;

/**
 * A connection's filter as the tick applies it: on a dump it judges the row frame, on a tail unit
 * the record. A row that passes lands; one judged false is dropped (a dump gives its seq back); one
 * the filter cannot judge is kept or dropped as {@link #onError} says. Thread-safe: the units of a
 * connection share it.
 */
@FunctionalInterface
public interface RowFilterStage {

  /**
   * No filter: every row lands. It judges a dump's row frame from its parts like any other stage,
   * so no frame is encoded only to be passed.
   */
  RowFilterStage KEEP_ALL =
      new RowFilterStage() {
        @Override
        public FilterVerdict judge(byte[] json) {
          return FilterVerdict.PASS;
        }

        @Override
        public FilterVerdict judgeRow(Frame.Row frame) {
          return FilterVerdict.PASS;
        }
      };

  /**
   * The verdict on a row whose JSON payload (a record, or an encoded row frame) is {@code json}.
   */
  FilterVerdict judge(byte[] json);

  /**
   * The verdict on a dump's row frame: the same as {@link #judge} on the encoded frame. A stage
   * that can judge the frame from its parts overrides this, so a frame is only encoded for the rows
   * that land.
   */
  default FilterVerdict judgeRow(Frame.Row frame) {
    return judge(FrameCodec.encode(frame));
  }

  /** What a row the filter cannot judge does. */
  default FilterErrors onError() {
    return FilterErrors.KEEP;
  }

  /** A stage that keeps the rows {@code keeps} accepts and judges every other false. */
  static RowFilterStage of(Predicate<byte[]> keeps) {
    return json -> keeps.test(json) ? FilterVerdict.PASS : FilterVerdict.DROP;
  }
}
