package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SnapshotWriterTest {

  @Test
  void everyFrameCarriesTheSameIdStartTimeAndStore() {
    SnapshotWriter writer = Frames.writer("inventory.hosts");
    List<Frame> frames =
        List.of(writer.begin(), writer.row(Frames.record("{}")), writer.oversize(10), writer.end());
    assertThat(frames)
        .extracting(frame -> frame.head().snapshotId())
        .containsOnly(writer.snapshotId());
    assertThat(frames)
        .extracting(frame -> frame.head().snapshotAt())
        .containsOnly("2026-05-01T12:00:00.123Z");
    assertThat(frames)
        .extracting(frame -> frame.head().timestamp())
        .containsOnly("2026-05-01T12:00:00.123Z");
    assertThat(frames).extracting(frame -> frame.head().store()).containsOnly("inventory.hosts");
  }

  @Test
  void theSnapshotIdIsAUuidV7StampedWithTheStartMillisecond() {
    SnapshotWriter writer = Frames.writer("a.b");
    UUID id = UUID.fromString(writer.snapshotId());
    assertThat(id.version()).isEqualTo(7);
    assertThat(UuidV7Generator.epochMillisOf(id)).isEqualTo(Frames.START.toEpochMilli());
    assertThat(writer.snapshotId()).isEqualTo(writer.snapshotId().toLowerCase());
  }

  @Test
  void seqRunsOverRowsAndStubsWithoutAHoleAndEndCarriesTheCount() {
    SnapshotWriter writer = Frames.writer("a.b");
    assertThat(writer.begin().head().seq()).isZero();
    List<Long> seqs =
        Stream.of(
                writer.row(Frames.record("1")),
                writer.oversize(2_000_000, "k"),
                writer.row(Frames.record("3")),
                writer.oversize(5))
            .map(frame -> frame.head().seq())
            .toList();
    Frame.End end = writer.end();

    assertThat(seqs).containsExactly(0L, 1L, 2L, 3L);
    assertThat(end.rowCount()).isEqualTo(4);
    assertThat(end.head().seq()).isEqualTo(end.rowCount());
  }

  @Test
  void aRowTheCallerDropsGivesItsSeqBack() {
    SnapshotWriter writer = Frames.writer("a.b");
    writer.row(Frames.record("\"kept\""));
    Frame.Row dropped = writer.row(Frames.record("\"dropped\""));
    writer.giveBack(dropped);
    Frame.Row next = writer.row(Frames.record("\"next\""));

    assertThat(next.head().seq()).isEqualTo(1);
    assertThat(writer.end().rowCount()).isEqualTo(2);
  }

  @Test
  void onlyTheLastNumberedRowCanGiveItsSeqBack() {
    SnapshotWriter writer = Frames.writer("a.b");
    Frame.Row first = writer.row(Frames.record("1"));
    writer.row(Frames.record("2"));
    assertThatThrownBy(() -> writer.giveBack(first))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("row seq 0, next seq 2");
  }

  @Test
  void anEmptyDumpIsBeginAndEndWithRowCountZero() {
    SnapshotWriter writer = Frames.writer("a.b");
    writer.begin(0);
    Frame.End end = writer.end();
    assertThat(end.rowCount()).isZero();
    assertThat(end.head().seq()).isZero();
  }

  @Test
  void endCarriesItsCompletionTimeInRfc3339Millis() {
    assertThat(Frames.writer("a.b").end().completedAt()).isEqualTo("2026-05-01T12:00:00.123Z");
  }

  @Test
  void framesOutOfOrderAreRefusedNamingTheSnapshot() {
    SnapshotWriter writer = Frames.writer("crm.accounts");
    writer.row(Frames.record("1"));
    assertThatThrownBy(writer::begin)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("crm.accounts")
        .hasMessageContaining("begin must come first");
    writer.end();
    assertThatThrownBy(() -> writer.row(Frames.record("2")))
        .hasMessageContaining("no row can follow end");
    assertThatThrownBy(writer::end).hasMessageContaining("end was already written");
  }
}
