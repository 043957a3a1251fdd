package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.runtime.transport.LandedFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where a resumable dump continues, from its mark and what of its snapshot landed. */
class ResumePointTest {

  private static final String ID = "0190f8a0-1d2e-7c3b-8a4f-123456789abc";

  /** The mark after 10 rows (seq 0..9), the last with key 10. */
  private static final DumpResumeMark AFTER_TEN =
      new DumpResumeMark(ID, "2026-05-01T12:00:00.000Z", 10, Optional.of(key(10)), 0, false);

  @Test
  void framesThatLandedPastTheCheckpointAreContinuedAfterNotNumberedAgain() {
    List<LandedFrame> landed = rows(5, 14); // seq 5..13 landed, 10..13 never acknowledged

    ResumePoint.Resolution resolution = ResumePoint.of(AFTER_TEN, landed);

    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.CONTINUED);
    assertThat(resolution.mark().orElseThrow().nextSeq()).isEqualTo(14);
    assertThat(resolution.mark().orElseThrow().lastKey()).contains(key(14));
    assertThat(resolution.mark().orElseThrow().snapshotId()).isEqualTo(ID);
  }

  @Test
  void nothingPastTheCheckpointContinuesAtTheCheckpoint() {
    ResumePoint.Resolution resolution = ResumePoint.of(AFTER_TEN, rows(0, 10));

    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.CONTINUED);
    assertThat(resolution.mark()).contains(AFTER_TEN);
  }

  @Test
  void aReadBackThatDoesNotReachTheLastAcknowledgedFrameAbandonsTheSnapshot() {
    // seq 9 (the last the checkpoint covers) is not among what was read: what landed beyond it
    // cannot be known to be all there is.
    ResumePoint.Resolution resolution = ResumePoint.of(AFTER_TEN, rows(10, 12));

    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.ABANDONED);
    assertThat(resolution.reason()).contains("seq 9");
  }

  @Test
  void aGapInWhatLandedAbandonsTheSnapshot() {
    List<LandedFrame> landed = new ArrayList<>(rows(8, 12));
    landed.addAll(rows(13, 15)); // seq 12 missing

    ResumePoint.Resolution resolution = ResumePoint.of(AFTER_TEN, landed);

    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.ABANDONED);
    assertThat(resolution.reason()).contains("seq 12 did not land but seq 14 did");
  }

  @Test
  void aLandedFrameWithoutItsKeyAbandonsTheSnapshot() {
    List<LandedFrame> landed = new ArrayList<>(rows(8, 11));
    landed.add(new LandedFrame("row", 11, Optional.empty()));

    assertThat(ResumePoint.of(AFTER_TEN, landed).outcome())
        .isEqualTo(ResumePoint.Outcome.ABANDONED);
  }

  @Test
  void anEndThatLandedMeansTheSnapshotIsDone() {
    List<LandedFrame> landed = new ArrayList<>(rows(8, 12));
    landed.add(new LandedFrame("end", 12, Optional.empty()));

    ResumePoint.Resolution resolution = ResumePoint.of(AFTER_TEN, landed);

    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.ENDED);
    assertThat(resolution.mark()).isEmpty();
  }

  @Test
  void aSnapshotWithoutRowsYetIsAnchoredOnItsBegin() {
    DumpResumeMark noRows =
        new DumpResumeMark(ID, "2026-05-01T12:00:00.000Z", 0, Optional.of(key(3)), 0, false);

    assertThat(ResumePoint.of(noRows, List.of()).outcome())
        .isEqualTo(ResumePoint.Outcome.ABANDONED);
    List<LandedFrame> begun = new ArrayList<>();
    begun.add(new LandedFrame("begin", 0, Optional.empty()));
    begun.addAll(rows(0, 2));
    ResumePoint.Resolution resolution = ResumePoint.of(noRows, begun);
    assertThat(resolution.outcome()).isEqualTo(ResumePoint.Outcome.CONTINUED);
    assertThat(resolution.mark().orElseThrow().nextSeq()).isEqualTo(2);
  }

  @Test
  void twoFramesAtOneSeqWithDifferentKeysAbandonTheSnapshot() {
    List<LandedFrame> landed = new ArrayList<>(rows(8, 12));
    landed.add(new LandedFrame("row", 11, Optional.of(MarkCodec.encodeKey(key(99)))));

    assertThat(ResumePoint.of(AFTER_TEN, landed).outcome())
        .isEqualTo(ResumePoint.Outcome.ABANDONED);
  }

  /** Row frames at seqs {@code from} until {@code to}, seq n carrying key n + 1. */
  private static List<LandedFrame> rows(long from, long to) {
    List<LandedFrame> frames = new ArrayList<>();
    for (long seq = from; seq < to; seq++) {
      frames.add(new LandedFrame("row", seq, Optional.of(MarkCodec.encodeKey(key(seq + 1)))));
    }
    return frames;
  }

  private static KeysetMark key(long id) {
    return KeysetMark.of(new KeysetMark.IntegerValue(id));
  }
}
