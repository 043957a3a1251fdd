package dfe.fetcher.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A resumable dump's mark in the cursor, and a snapshot writer that continues one. */
class DumpResumeMarkCodecTest {

  private static final KeysetMark KEY =
      KeysetMark.of(
          new KeysetMark.IntegerValue(42),
          new KeysetMark.DecimalValue(new BigDecimal("1.50")),
          new KeysetMark.StringValue("x"));

  @Test
  void anOpenMarkReadsBackAsWritten() throws Exception {
    DumpResumeMark mark =
        new DumpResumeMark(
            "0190f8a0-1d2e-7c3b-8a4f-123456789abc",
            "2026-05-01T12:00:00.123Z",
            100_000,
            Optional.of(KEY),
            1_777_636_800_123L,
            false);

    assertThat(MarkCodec.decode(MarkCodec.encode(mark, Instant.EPOCH))).isEqualTo(mark);
  }

  @Test
  void anEndedMarkWithoutAKeyReadsBackAsWritten() throws Exception {
    DumpResumeMark mark =
        new DumpResumeMark("id", "2026-05-01T12:00:00.123Z", 0, Optional.empty(), 5, true);

    assertThat(MarkCodec.decode(MarkCodec.encode(mark, Instant.EPOCH))).isEqualTo(mark);
  }

  @Test
  void aKeyOnItsOwnReadsBackWithItsTypes() throws Exception {
    assertThat(MarkCodec.decodeKey(MarkCodec.encodeKey(KEY))).isEqualTo(KEY);
    assertThat(MarkCodec.encodeKey(KeysetMark.of(new KeysetMark.IntegerValue(7))))
        .isEqualTo("[{\"type\":\"integer\",\"value\":\"7\"}]");
  }

  @Test
  void aMarkWithoutItsSeqIsUnreadable() {
    String document =
        "{\"version\":2,\"mark\":{\"kind\":\"dump_resume\",\"snapshot_id\":\"id\","
            + "\"snapshot_at\":\"2026-05-01T12:00:00.123Z\",\"anchor_ms\":\"1\",\"ended\":false}}";

    assertThatThrownBy(() -> MarkCodec.decode(document.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(MarkCodec.UnreadableMarkException.class)
        .hasMessageContaining("next_seq");
  }

  @Test
  void aResumedWriterKeepsTheSnapshotAndNumbersOn() {
    Clock clock = Clock.fixed(Instant.parse("2026-05-02T00:00:00Z"), ZoneOffset.UTC);
    SnapshotWriter writer =
        SnapshotWriter.resume("crm.accounts", "id-1", "2026-05-01T12:00:00.123Z", 7, clock);

    Frame.Row row = writer.row(RawRecord.of("{\"id\":8}".getBytes(StandardCharsets.UTF_8)));
    Frame.End end = writer.end();

    assertThat(row.head().snapshotId()).isEqualTo("id-1");
    assertThat(row.head().snapshotAt()).isEqualTo("2026-05-01T12:00:00.123Z");
    assertThat(row.head().seq()).isEqualTo(7);
    assertThat(end.rowCount()).isEqualTo(8);
  }
}
