package dfe.fetcher.benchmarks;

import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.envelope.UuidV7Generator;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;

/**
 * One snapshot of small host-like records written by {@link SnapshotWriter}, encoded with {@link
 * FrameCodec} and shuffled: the input every measurement in this module starts from.
 *
 * <p>The clock and every random source are fixed, so two runs (and the JMH benchmark, the retained
 * heap tool and the generated file) see byte-for-byte the same frames in the same order.
 */
final class ShuffledSnapshot {

  /** The seed of both the snapshot id and the shuffle. */
  static final long SEED = 20260501L;

  private static final Instant STARTED = Instant.parse("2026-05-01T12:00:00.123Z");
  private static final String STORE = "inventory.hosts";

  private final String snapshotId;
  private final byte[][] lines;

  private ShuffledSnapshot(String snapshotId, byte[][] lines) {
    this.snapshotId = snapshotId;
    this.lines = lines;
  }

  /** A snapshot of {@code rows} rows: begin, the rows and end, {@code rows + 2} frames in all. */
  static ShuffledSnapshot generate(int rows) {
    if (rows < 0 || rows > Integer.MAX_VALUE - 2) {
      throw new IllegalArgumentException("rows must be 0.." + (Integer.MAX_VALUE - 2));
    }
    SnapshotWriter writer =
        SnapshotWriter.open(
            STORE, Clock.fixed(STARTED, ZoneOffset.UTC), new UuidV7Generator(new Random(SEED)));
    byte[][] lines = new byte[rows + 2][];
    int next = 0;
    lines[next++] = FrameCodec.encode(writer.begin(rows));
    for (int i = 0; i < rows; i++) {
      lines[next++] = FrameCodec.encode(writer.row(record(i)));
    }
    lines[next] = FrameCodec.encode(writer.end());
    shuffle(lines, new Random(SEED));
    return new ShuffledSnapshot(writer.snapshotId(), lines);
  }

  /**
   * A record shaped like what a small inventory table yields; the values vary with {@code i} so the
   * digests differ from seq to seq as they would in a real dump.
   */
  static RawRecord record(int i) {
    return RawRecord.of(
        "{\"id\":\""
            + i
            + "\",\"alive\":"
            + (i % 10 != 0)
            + ",\"n\":"
            + i
            + ",\"name\":\"host-"
            + i
            + "\"}");
  }

  String snapshotId() {
    return snapshotId;
  }

  /** The encoded frames, one JSON object each without a newline, in shuffled order. */
  byte[][] lines() {
    return lines;
  }

  int frameCount() {
    return lines.length;
  }

  // Fisher-Yates on the array itself: Collections.shuffle would need a boxed list of a million.
  private static void shuffle(byte[][] lines, Random random) {
    for (int i = lines.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      byte[] swap = lines[i];
      lines[i] = lines[j];
      lines[j] = swap;
    }
  }
}
