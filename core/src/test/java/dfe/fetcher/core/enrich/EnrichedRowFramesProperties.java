package dfe.fetcher.core.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.RowFrameEncoder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The one-pass writers give the bytes of the general path: {@link RowFrameEncoder} those of {@link
 * FrameCodec#encode}, and {@link EnrichedRowFrames} those of {@link Enrichment#enrichFrame} over
 * them, whatever the strings (quotes, control characters, non-ASCII), seqs and times.
 */
class EnrichedRowFramesProperties {

  @Property(tries = 500)
  void aRowFrameEncodesAsTheCodecWritesIt(
      @ForAll("text") String id,
      @ForAll("text") String store,
      @ForAll("seqs") long seq,
      @ForAll("records") String record) {
    FrameHead head =
        new FrameHead(id, "2026-05-01T12:00:00.123Z", "2026-05-01T12:00:00.123Z", store, seq);
    Frame.Row row = new Frame.Row(head, RawRecord.of(record));
    assertThat(new RowFrameEncoder(head.atSeq(0)).encode(row)).isEqualTo(FrameCodec.encode(row));
  }

  @Property(tries = 500)
  void anEnrichedRowFrameIsTheEnrichedEncodedFrame(
      @ForAll("text") String store,
      @ForAll("text") String source,
      @ForAll("seqs") long seq,
      @ForAll("records") String record,
      @ForAll long fetched,
      @ForAll long received) {
    FrameHead head =
        new FrameHead(
            "0190a1b2-c3d4-7e5f-8a9b-000000000001",
            "2026-05-01T12:00:00.123Z",
            "2026-05-01T12:00:00.124Z",
            store,
            seq);
    Frame.Row row = new Frame.Row(head, RawRecord.of(record));
    byte[] general =
        Enrichment.enrichFrame(
            FrameCodec.encode(row), new EnrichmentFields(fetched, received, source, store));
    byte[] onePass =
        new EnrichedRowFrames(source, store)
            .enrich(new RowFrameEncoder(head), row, fetched, received);
    assertThat(onePass).isEqualTo(general);
  }

  /**
   * One writer over many rows, as a tick uses it: the times repeat (many rows a millisecond) and
   * change, back to earlier values too, and every row is the general path's bytes for its own
   * times.
   */
  @Property(tries = 200)
  void consecutiveRowsEachCarryTheirOwnTimes(
      @ForAll("text") String store,
      @ForAll("records") String record,
      @ForAll @Size(min = 1, max = 30) List<@From("times") Long> fetchedTimes,
      @ForAll @Size(min = 1, max = 30) List<@From("times") Long> receivedTimes) {
    FrameHead head =
        new FrameHead(
            "0190a1b2-c3d4-7e5f-8a9b-000000000002",
            "2026-05-01T12:00:00.123Z",
            "2026-05-01T12:00:00.124Z",
            store,
            0);
    RowFrameEncoder encoder = new RowFrameEncoder(head);
    EnrichedRowFrames writer = new EnrichedRowFrames("src", store);
    int rows = Math.max(fetchedTimes.size(), receivedTimes.size());
    for (int seq = 0; seq < rows; seq++) {
      long fetched = fetchedTimes.get(seq % fetchedTimes.size());
      long received = receivedTimes.get(seq % receivedTimes.size());
      Frame.Row row = new Frame.Row(head.atSeq(seq), RawRecord.of(record));
      byte[] general =
          Enrichment.enrichFrame(
              FrameCodec.encode(row), new EnrichmentFields(fetched, received, "src", store));
      assertThat(writer.enrich(encoder, row, fetched, received))
          .as("row %d, fetched %d, received %d", seq, fetched, received)
          .isEqualTo(general);
    }
  }

  @Provide
  Arbitrary<Long> times() {
    return Arbitraries.oneOf(
        Arbitraries.of(1_796_286_917_000L, 1_796_286_917_001L, 9L, 10L, 0L, -1L),
        Arbitraries.longs());
  }

  @Property(tries = 200)
  void anEncoderWritesOnlyItsOwnSnapshotsHead(@ForAll("text") String store) {
    FrameHead head = new FrameHead("a", "t", "t", store, 0);
    RowFrameEncoder encoder = new RowFrameEncoder(head);
    assertThat(encoder.writes(new FrameHead("a", "t", "t", new String(store), 9))).isTrue();
    assertThat(encoder.writes(new FrameHead("b", "t", "t", store, 0))).isFalse();
    assertThat(encoder.writes(new FrameHead("a", "t", "t", store + "x", 0))).isFalse();
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMinLength(1).ofMaxLength(12),
        Arbitraries.strings().withChars("a\"\\\u0001é€\n/").ofMinLength(1).ofMaxLength(6),
        Arbitraries.of("inventory.hosts", "crm.accounts"));
  }

  @Provide
  Arbitrary<Long> seqs() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 20),
        Arbitraries.longs().between(0, FrameCodec.MAX_SEQ),
        Arbitraries.of(9L, 10L, 99L, 100L, 999_999L, 1_000_000L, FrameCodec.MAX_SEQ));
  }

  @Provide
  Arbitrary<String> records() {
    return Arbitraries.of(
        "{}",
        "{\"id\":\"host-1\",\"alive\":true}",
        "[1,2,3]",
        "\"a string\"",
        "0",
        "null",
        "{\"é\":\"€\",\"nested\":{\"a\":[{}]}}");
  }
}
