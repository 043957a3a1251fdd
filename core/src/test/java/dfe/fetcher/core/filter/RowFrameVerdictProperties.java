package dfe.fetcher.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Judging a row frame from its parts gives the verdict, reason included, that judging its encoded
 * JSON gives: for expressions on the record (through its fields only, or whole), on the head, on
 * fields a frame does not have, and for records that pass, fail, miss the field or are not objects.
 * Records keep {@code RawRecord}'s contract (one JSON value), as every source's do.
 */
class RowFrameVerdictProperties {

  @Property(tries = 600)
  void aFrameJudgedFromItsPartsGetsTheVerdictOfItsEncodedJson(
      @ForAll("expressions") String expression,
      @ForAll("records") String record,
      @ForAll("seqs") long seq)
      throws FilterCompileException {
    RowFilter filter = RowFilter.compile(expression);
    Frame.Row frame =
        new Frame.Row(
            new FrameHead(
                "0190a1b2-c3d4-7e5f-8a9b-000000000001",
                "2026-05-01T12:00:00.123Z",
                "2026-05-01T12:00:00.123Z",
                "inventory.hosts",
                seq),
            RawRecord.of(record));
    assertThat(filter.evaluateRowFrame(frame)).isEqualTo(filter.evaluate(FrameCodec.encode(frame)));
  }

  @Provide
  Arbitrary<String> expressions() {
    return Arbitraries.of(
        "record.alive == true",
        "record.n > 2",
        "has(record.alive)",
        "record.tags.exists(t, t == \"b\")",
        "kind == \"row\" && seq % 2 == 0",
        "store == \"inventory.hosts\" && snapshot_id != \"\" && timestamp == snapshot_at",
        "size(record) > 1",
        "record.name",
        "record.n > 2 || size(record) == 4",
        "record[\"alive\"] == true",
        "record.exists(k, k == \"tags\") && record.alive",
        "record.tags.all(t, size(t) == 1) ? record.n == 3 : has(record.missing)",
        "other == 1",
        "true");
  }

  @Provide
  Arbitrary<String> records() {
    return Arbitraries.of(
        "{\"alive\":true,\"n\":3,\"tags\":[\"a\",\"b\"],\"name\":\"x\"}",
        "{\"alive\":false,\"n\":1.5,\"tags\":[]}",
        "{\"n\":12345678901234567890}",
        "{}",
        "[1,2]",
        "\"text\"",
        "null",
        "{\"alive\":null,\"n\":\"3\"}",
        "{\"alive\":true,\"alive\":false,\"n\":3}",
        "{\"alive\":true,\"n\":{\"deep\":[1,{\"x\":null}]},\"tags\":[\"a\"],\"z\":1e400}");
  }

  @Provide
  Arbitrary<Long> seqs() {
    return Arbitraries.longs().between(0, 1000);
  }
}
