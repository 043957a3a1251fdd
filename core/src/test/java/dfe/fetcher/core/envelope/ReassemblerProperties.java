package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * Generated snapshots, shuffled, duplicated and with frames dropped: the Reassembler's verdict must
 * equal what follows from what was dropped.
 */
class ReassemblerProperties {

  @Property(tries = 300)
  void statusAndMissingSeqsFollowFromTheDroppedFrames(
      @ForAll @IntRange(min = 0, max = 400) int rowCount,
      @ForAll @DoubleRange(min = 0.0, max = 0.2) double dropRate,
      @ForAll @DoubleRange(min = 0.0, max = 1.0) double duplicateRate,
      @ForAll("seeds") long seed) {
    Random random = new Random(seed);
    SnapshotWriter writer = Frames.writer("prop.store", new UuidV7Generator(random));
    List<Frame> frames = new ArrayList<>();
    frames.add(writer.begin());
    for (int i = 0; i < rowCount; i++) {
      frames.add(
          random.nextInt(10) == 0
              ? writer.oversize(1_000_000 + i, "key-" + i)
              : writer.row(Frames.record("{\"i\":" + i + ",\"r\":" + random.nextInt() + "}")));
    }
    frames.add(writer.end());

    List<Frame> kept = new ArrayList<>();
    TreeSet<Long> droppedSeqs = new TreeSet<>();
    boolean beginKept = false;
    boolean endKept = false;
    for (Frame frame : frames) {
      if (random.nextDouble() < dropRate) {
        if (frame.kind() == FrameKind.ROW || frame.kind() == FrameKind.OVERSIZE) {
          droppedSeqs.add(frame.head().seq());
        }
        continue;
      }
      beginKept |= frame.kind() == FrameKind.BEGIN;
      endKept |= frame.kind() == FrameKind.END;
      kept.add(frame);
      while (random.nextDouble() < duplicateRate * 0.5) {
        kept.add(frame);
      }
    }
    Collections.shuffle(kept, random);

    Reassembler reassembler = Reassembler.retainingRecords();
    kept.forEach(reassembler::accept);
    if (kept.isEmpty()) {
      assertThat(reassembler.report(writer.snapshotId())).isEmpty();
      return;
    }
    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();

    SnapshotStatus expected =
        !endKept
            ? SnapshotStatus.OPEN
            : droppedSeqs.isEmpty() ? SnapshotStatus.COMPLETE : SnapshotStatus.TRUNCATED;
    assertThat(report.status()).isEqualTo(expected);
    assertThat(report.begun()).isEqualTo(beginKept);
    if (expected == SnapshotStatus.TRUNCATED) {
      assertThat(report.missing())
          .containsExactlyElementsOf(
              droppedSeqs.stream().limit(Reassembler.REPORTED_MISSING).toList());
    } else {
      assertThat(report.missing()).isEmpty();
    }
    if (expected == SnapshotStatus.COMPLETE) {
      List<RawRecord> expectedRows =
          frames.stream()
              .filter(frame -> frame.kind() == FrameKind.ROW)
              .map(frame -> ((Frame.Row) frame).record())
              .toList();
      assertThat(reassembler.rows(writer.snapshotId())).containsExactlyElementsOf(expectedRows);
    }
  }

  @Property(tries = 100)
  void aVerifyOnlyReassemblerReachesTheSameVerdict(
      @ForAll @IntRange(min = 0, max = 200) int rowCount,
      @ForAll @DoubleRange(min = 0.0, max = 0.1) double dropRate,
      @ForAll("seeds") long seed) {
    Random random = new Random(seed);
    SnapshotWriter writer = Frames.writer("prop.store", new UuidV7Generator(random));
    List<Frame> frames = new ArrayList<>();
    frames.add(writer.begin());
    for (int i = 0; i < rowCount; i++) {
      frames.add(writer.row(Frames.record("[" + i + "]")));
    }
    frames.add(writer.end());
    frames.removeIf(frame -> random.nextDouble() < dropRate);
    Collections.shuffle(frames, random);

    Reassembler full = Reassembler.retainingRecords();
    Reassembler verifier = Reassembler.verifyOnly();
    frames.forEach(full::accept);
    frames.forEach(verifier::accept);

    assertThat(verifier.reports()).isEqualTo(full.reports());
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<Long> seeds() {
    return net.jqwik.api.Arbitraries.longs();
  }
}
