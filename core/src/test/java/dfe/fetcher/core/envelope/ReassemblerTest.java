package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class ReassemblerTest {

  private final Reassembler reassembler = Reassembler.retainingRecords();

  /** A dump of {@code rows} rows {@code {"n":i}} as begin, rows, end. */
  private static List<Frame> dump(SnapshotWriter writer, int rows) {
    List<Frame> frames = new ArrayList<>();
    frames.add(writer.begin());
    for (int i = 0; i < rows; i++) {
      frames.add(writer.row(Frames.record("{\"n\":" + i + "}")));
    }
    frames.add(writer.end());
    return frames;
  }

  private void feed(List<Frame> frames) {
    frames.forEach(reassembler::accept);
  }

  private static String id(List<Frame> frames) {
    return frames.get(0).head().snapshotId();
  }

  @Test
  void aDumpWithItsEndAndEverySeqIsCompleteAndYieldsItsRowsInSeqOrder() {
    List<Frame> frames = dump(Frames.writer("a.b"), 3);
    feed(frames);

    SnapshotReport report = reassembler.report(id(frames)).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.rowCount()).hasValue(3);
    assertThat(report.rows()).isEqualTo(3);
    assertThat(report.begun()).isTrue();
    assertThat(reassembler.rows(id(frames)))
        .extracting(RawRecord::toString)
        .containsExactly("{\"n\":0}", "{\"n\":1}", "{\"n\":2}");
  }

  @Test
  void everySeqWithoutTheEndIsOpen() {
    List<Frame> frames = dump(Frames.writer("a.b"), 3);
    feed(frames.subList(0, frames.size() - 1));

    assertThat(reassembler.status(id(frames))).hasValue(SnapshotStatus.OPEN);
    assertThat(reassembler.report(id(frames)).orElseThrow().rowCount()).isEmpty();
    assertThatThrownBy(() -> reassembler.rows(id(frames)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is open, not complete");
  }

  @Test
  void theEndWithASeqMissingIsTruncatedAndNamesTheMissingSeqs() {
    List<Frame> frames = new ArrayList<>(dump(Frames.writer("a.b"), 6));
    frames.remove(6); // seq 5, the last row
    frames.remove(3); // seq 2
    feed(frames);

    SnapshotReport report = reassembler.report(id(frames)).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.TRUNCATED);
    assertThat(report.missing()).containsExactly(2L, 5L);
    assertThat(report.rows()).isEqualTo(4);
  }

  @Test
  void aTruncatedReportListsTheFirstHundredMissingSeqs() {
    SnapshotWriter writer = Frames.writer("a.b");
    for (int i = 0; i < 1000; i++) {
      writer.row(Frames.record("1"));
    }
    reassembler.accept(writer.end());

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.missing()).hasSize(100).startsWith(0L, 1L).endsWith(99L);
    assertThat(reassembler.missing(writer.snapshotId(), 2000)).hasSize(1000);
  }

  @Test
  void framesOutOfOrderAndRepeatedStillMakeTheSameCompleteSnapshot() {
    List<Frame> frames = new ArrayList<>(dump(Frames.writer("a.b"), 50));
    frames.addAll(frames.subList(10, 30));
    frames.addAll(frames.subList(0, 3));
    Collections.shuffle(frames, new Random(11));
    feed(frames);

    assertThat(reassembler.status(id(frames))).hasValue(SnapshotStatus.COMPLETE);
    assertThat(reassembler.rows(id(frames)))
        .extracting(RawRecord::toString)
        .first()
        .isEqualTo("{\"n\":0}");
    assertThat(reassembler.rows(id(frames))).hasSize(50);
  }

  @Test
  void beginIsNotRequiredForCompleteness() {
    List<Frame> frames = dump(Frames.writer("a.b"), 2);
    feed(frames.subList(1, frames.size()));

    SnapshotReport report = reassembler.report(id(frames)).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.begun()).isFalse();
  }

  @Test
  void stubsCountTowardCompletenessAreExcludedFromRowsAndReportedWithTheirKeys() {
    SnapshotWriter writer = Frames.writer("a.b");
    List<Frame> frames =
        List.of(
            writer.begin(),
            writer.row(Frames.record("\"a\"")),
            writer.oversize(2_000_000, "big-1"),
            writer.oversize(3_000_000),
            writer.row(Frames.record("\"d\"")),
            writer.end());
    feed(frames);

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.rows()).isEqualTo(2);
    assertThat(report.stubs()).isEqualTo(2);
    assertThat(reassembler.rows(writer.snapshotId()))
        .extracting(RawRecord::toString)
        .containsExactly("\"a\"", "\"d\"");
    assertThat(reassembler.stubKeys(writer.snapshotId()))
        .containsExactly(Map.entry(1L, Optional.of("big-1")), Map.entry(2L, Optional.empty()));
  }

  @Test
  void theSameRecordWithItsKeysInAnotherOrderIsNotAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Row row = writer.row(Frames.record("{\"a\":1,\"b\":[1.0,\"x\"]}"));
    reassembler.accept(row);
    reassembler.accept(new Frame.Row(row.head(), Frames.record("{ \"b\":[1,\"x\"], \"a\":1 }")));
    reassembler.accept(writer.end());

    assertThat(reassembler.status(writer.snapshotId())).hasValue(SnapshotStatus.COMPLETE);
  }

  @Test
  void theSameSeqWithADifferentRecordIsAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Row row = writer.row(Frames.record("{\"a\":1}"));
    reassembler.accept(row);
    reassembler.accept(new Frame.Row(row.head(), Frames.record("{\"a\":2}")));
    reassembler.accept(writer.end());

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.CONFLICT);
    assertThat(report.conflicts()).containsExactly("seq 0 arrived with two different records");
  }

  @Test
  void aSeqAsBothARowAndAStubIsAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Row row = writer.row(Frames.record("1"));
    reassembler.accept(row);
    reassembler.accept(new Frame.Oversize(row.head(), 10, Optional.empty()));
    reassembler.accept(writer.end());

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.CONFLICT);
    assertThat(report.conflicts())
        .containsExactly("seq 0 arrived both as a row and as an oversize stub");
  }

  @Test
  void aSeqAtOrBeyondRowCountIsAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    reassembler.accept(writer.row(Frames.record("1")));
    Frame.Row extra = writer.row(Frames.record("2"));
    reassembler.accept(new Frame.End(extra.head(), 1, "2026-05-01T12:00:01.000Z"));
    reassembler.accept(extra);

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.CONFLICT);
    assertThat(report.rowCount()).hasValue(1);
    assertThat(report.conflicts()).contains("seq 1 is at or beyond row_count 1");
  }

  @Test
  void twoEndsThatDisagreeAreAConflictWithoutARowCount() {
    SnapshotWriter writer = Frames.writer("a.b");
    reassembler.accept(writer.row(Frames.record("1")));
    Frame.End end = writer.end();
    reassembler.accept(end);
    reassembler.accept(new Frame.End(end.head().atSeq(2), 2, end.completedAt()));

    SnapshotReport report = reassembler.report(writer.snapshotId()).orElseThrow();
    assertThat(report.status()).isEqualTo(SnapshotStatus.CONFLICT);
    assertThat(report.rowCount()).isEmpty();
    assertThat(report.conflicts()).contains("end frames disagree: row_count 1 and 2");
  }

  @Test
  void aRepeatedEndThatAgreesIsNotAConflict() {
    List<Frame> frames = dump(Frames.writer("a.b"), 2);
    feed(frames);
    reassembler.accept(frames.get(frames.size() - 1));
    assertThat(reassembler.status(id(frames))).hasValue(SnapshotStatus.COMPLETE);
  }

  @Test
  void twoDifferentStubsForOneSeqAreAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Oversize stub = writer.oversize(10, "k");
    reassembler.accept(stub);
    reassembler.accept(new Frame.Oversize(stub.head(), 11, stub.rowKey()));
    reassembler.accept(writer.end());
    assertThat(reassembler.report(writer.snapshotId()).orElseThrow().conflicts())
        .containsExactly("seq 0 arrived as two different oversize stubs");
  }

  @Test
  void framesOfOneSnapshotThatNameTwoStoresAreAConflict() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Row row = writer.row(Frames.record("1"));
    reassembler.accept(row);
    FrameHead other =
        new FrameHead(
            row.head().snapshotId(), row.head().snapshotAt(), row.head().timestamp(), "x.y", 0);
    reassembler.accept(new Frame.Row(other, row.record()));
    reassembler.accept(writer.end());
    assertThat(reassembler.status(writer.snapshotId())).hasValue(SnapshotStatus.CONFLICT);
  }

  @Test
  void snapshotsAreTrackedApartAndReportedInIdOrder() {
    UuidV7Generator ids = new UuidV7Generator(new Random(3));
    List<Frame> first = dump(Frames.writer("a.b", ids), 2);
    List<Frame> second = dump(Frames.writer("a.b", ids), 3);
    List<Frame> interleaved = new ArrayList<>(second);
    interleaved.addAll(first.subList(0, 2));
    feed(interleaved);

    assertThat(reassembler.reports())
        .extracting(SnapshotReport::snapshotId, SnapshotReport::status)
        .containsExactly(
            Tuple.tuple(id(first), SnapshotStatus.OPEN),
            Tuple.tuple(id(second), SnapshotStatus.COMPLETE));
  }

  @Test
  void theLatestCompleteSnapshotOfAStoreIsTheGreatestUuidV7() {
    UuidV7Generator ids = new UuidV7Generator(new Random(3));
    List<Frame> older = dump(Frames.writer("a.b", ids), 1);
    List<Frame> newer = dump(Frames.writer("a.b", ids), 1);
    List<Frame> newestOpen = dump(Frames.writer("a.b", ids), 1);
    List<Frame> otherStore = dump(Frames.writer("c.d", ids), 1);
    feed(newer);
    feed(older);
    feed(newestOpen.subList(0, 2));
    feed(otherStore);

    assertThat(reassembler.latestComplete("a.b")).hasValue(id(newer));
    assertThat(reassembler.latestComplete("nope.none")).isEmpty();
  }

  @Test
  void aVerifyOnlyReassemblerReportsStatusButKeepsNoRecords() {
    Reassembler verifier = Reassembler.verifyOnly();
    List<Frame> frames = dump(Frames.writer("a.b"), 3);
    frames.forEach(verifier::accept);

    assertThat(verifier.status(id(frames))).hasValue(SnapshotStatus.COMPLETE);
    assertThatThrownBy(() -> verifier.rows(id(frames)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("were not kept");
  }

  @Test
  void recordsAreRetainedOnlyForTheSelectedSnapshots() {
    UuidV7Generator ids = new UuidV7Generator(new Random(5));
    List<Frame> wanted = dump(Frames.writer("a.b", ids), 2);
    List<Frame> other = dump(Frames.writer("a.b", ids), 2);
    Reassembler selective = Reassembler.retainingRecordsOf(id(wanted)::equals);
    wanted.forEach(selective::accept);
    other.forEach(selective::accept);

    assertThat(selective.rows(id(wanted))).hasSize(2);
    assertThatThrownBy(() -> selective.rows(id(other))).hasMessageContaining("were not kept");
  }

  @Test
  void aForgottenSnapshotIsNoLongerReported() {
    List<Frame> frames = dump(Frames.writer("a.b"), 2);
    feed(frames);
    reassembler.forget(id(frames));
    assertThat(reassembler.report(id(frames))).isEmpty();
    assertThat(reassembler.reports()).isEmpty();
  }

  @Test
  void bytesThatAreNotAFrameAreRefusedAndChangeNothing() {
    assertThatThrownBy(() -> reassembler.accept("[1]".getBytes()))
        .isInstanceOf(InvalidFrameException.class);
    assertThat(reassembler.reports()).isEmpty();
  }
}
