package dfe.fetcher.core.envelope;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;

/** Writers over a fixed clock and a seeded id generator, so tests see the same ids every run. */
final class Frames {

  static final Instant START = Instant.parse("2026-05-01T12:00:00.123Z");

  private Frames() {}

  static Clock fixedClock() {
    return Clock.fixed(START, ZoneOffset.UTC);
  }

  static SnapshotWriter writer(String store) {
    return SnapshotWriter.open(store, fixedClock(), new UuidV7Generator(new Random(7)));
  }

  static SnapshotWriter writer(String store, SnapshotIdGenerator ids) {
    return SnapshotWriter.open(store, fixedClock(), ids);
  }

  static RawRecord record(String json) {
    return RawRecord.of(json);
  }
}
