package dfe.fetcher.benchmarks;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;

/**
 * The rows the hot-path benchmarks work on: those of {@code benchmarks/scripts/throughput.sh},
 * about 290 bytes.
 */
final class HotPathRows {

  static final String STORE = "inventory.hosts";
  static final String SOURCE = "inventory";
  static final FrameHead HEAD =
      new FrameHead(
          "0190a1b2-c3d4-7e5f-8a9b-000000000001",
          "2026-05-01T12:00:00.123Z",
          "2026-05-01T12:00:00.123Z",
          STORE,
          0);

  private HotPathRows() {}

  /**
   * Row {@code i} as {@code benchmarks/scripts/throughput.sh} generates it; one in ten has {@code
   * alive=false}.
   */
  static String row(int i) {
    return String.format(
        "{\"id\":\"host-%09d\",\"alive\":%s,\"n\":%d,\"rack\":\"r%02d\",\"zone\":\"eu-west-%d\","
            + "\"os\":\"debian-12.%d\",\"cpu\":%d,\"mem_mb\":%d,\"tags\":[\"web\",\"prod\",\"t%d\"],"
            + "\"owner\":\"team-%03d@example.org\",\"site\":\"dc-%02d-hall-b\",\"note\":\"generated"
            + " row for the throughput benchmark, padded to about three hundred bytes\"}",
        i,
        i % 10 == 0 ? "false" : "true",
        i,
        i % 64,
        i % 3,
        i % 9,
        2 + i % 30,
        1024 * (1 + i % 64),
        i % 100,
        i % 500,
        i % 40);
  }

  /** {@code count} row frames of one snapshot, seqs from 0. */
  static Frame.Row[] frames(int count) {
    Frame.Row[] frames = new Frame.Row[count];
    for (int i = 0; i < count; i++) {
      frames[i] = new Frame.Row(HEAD.atSeq(i), RawRecord.of(row(i)));
    }
    return frames;
  }
}
