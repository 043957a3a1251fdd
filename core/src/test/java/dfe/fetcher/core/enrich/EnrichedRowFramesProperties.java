package dfe.fetcher.core.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.RowFrameEncoder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

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
