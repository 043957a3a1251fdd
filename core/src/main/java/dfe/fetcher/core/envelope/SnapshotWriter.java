package dfe.fetcher.core.envelope;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Numbers the frames of one dump of one store.
 *
 * <p>Opening a writer mints the {@code snapshot_id} at the clock's current millisecond, which
 * becomes {@code snapshot_at} and {@code timestamp} of every frame. Then: at most one {@link
 * #begin}, before any row; any number of {@link #row} and {@link #oversize} calls, which take seqs
 * 0, 1, 2, ... with no hole; and one {@link #end}, whose seq and {@code row_count} are the number
 * of rows and stubs numbered. A row the caller drops after numbering it (the filter) is handed back
 * with {@link #giveBack} before the next frame is numbered, so what lands stays contiguous. The
 * writer only makes frames; sending them is the caller's business. Not thread-safe: one dump is one
 * sequence of calls.
 */
public final class SnapshotWriter {

  private enum State {
    OPENED,
    BEGUN,
    NUMBERING,
    ENDED
  }

  private final Clock clock;
  private final FrameHead head;
  private State state = State.OPENED;
  private long nextSeq;

  private SnapshotWriter(Clock clock, FrameHead head) {
    this.clock = clock;
    this.head = head;
  }

  /** Starts a dump of {@code store} ({@code <connection>.<unit>}) now, by {@code clock}. */
  public static SnapshotWriter open(String store, Clock clock, SnapshotIdGenerator ids) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ids, "ids");
    long startMillis = clock.millis();
    String startedAt = SnapshotTime.format(Instant.ofEpochMilli(startMillis));
    String id = ids.mint(startMillis).toString();
    return new SnapshotWriter(clock, new FrameHead(id, startedAt, startedAt, store, 0));
  }

  /**
   * Continues a dump of {@code store} an earlier writer began (a resumable dump after a restart):
   * the same {@code snapshotId} and {@code snapshotAt}, no begin (it was written then), and the
   * next row at {@code nextSeq}. The caller vouches that every seq below {@code nextSeq} landed and
   * none at or above it did.
   */
  public static SnapshotWriter resume(
      String store, String snapshotId, String snapshotAt, long nextSeq, Clock clock) {
    Objects.requireNonNull(clock, "clock");
    SnapshotWriter writer =
        new SnapshotWriter(clock, new FrameHead(snapshotId, snapshotAt, snapshotAt, store, 0));
    if (nextSeq < 0 || nextSeq > FrameCodec.MAX_SEQ) {
      throw writer.misuse("cannot resume at seq " + nextSeq);
    }
    writer.state = State.NUMBERING;
    writer.nextSeq = nextSeq;
    return writer;
  }

  public String snapshotId() {
    return head.snapshotId();
  }

  public String snapshotAt() {
    return head.snapshotAt();
  }

  public String store() {
    return head.store();
  }

  /** The seq the next row or stub will take: also the number of rows and stubs so far. */
  public long nextSeq() {
    return nextSeq;
  }

  /** The begin frame, when the store's own count is not known. */
  public Frame.Begin begin() {
    return begin(OptionalLong.empty());
  }

  /** The begin frame carrying the store's own count. */
  public Frame.Begin begin(long total) {
    return begin(OptionalLong.of(total));
  }

  private Frame.Begin begin(OptionalLong total) {
    if (state != State.OPENED) {
      throw misuse("begin must come first and only once");
    }
    state = State.BEGUN;
    return new Frame.Begin(head, total);
  }

  /** A row frame carrying {@code record} verbatim, at the next seq. */
  public Frame.Row row(RawRecord record) {
    return new Frame.Row(number(), record);
  }

  /** An oversize stub for a record of {@code bytes} bytes with no identity, at the next seq. */
  public Frame.Oversize oversize(long bytes) {
    return new Frame.Oversize(number(), bytes, Optional.empty());
  }

  /** An oversize stub for a record of {@code bytes} bytes identified by {@code rowKey}. */
  public Frame.Oversize oversize(long bytes, String rowKey) {
    return new Frame.Oversize(number(), bytes, Optional.of(rowKey));
  }

  /**
   * Gives back the seq of {@code row}, which must be the last frame numbered: the next row takes
   * its seq. Stubs are never given back.
   */
  public void giveBack(Frame.Row row) {
    if (state != State.NUMBERING
        || !row.head().snapshotId().equals(head.snapshotId())
        || row.head().seq() != nextSeq - 1) {
      throw misuse(
          "only the last numbered row can give its seq back (row seq "
              + row.head().seq()
              + ", next seq "
              + nextSeq
              + ")");
    }
    nextSeq--;
  }

  /** The end frame: {@code row_count} is every row and stub numbered and not given back. */
  public Frame.End end() {
    if (state == State.ENDED) {
      throw misuse("end was already written");
    }
    state = State.ENDED;
    return new Frame.End(head.atSeq(nextSeq), nextSeq, SnapshotTime.format(clock.instant()));
  }

  private FrameHead number() {
    if (state == State.ENDED) {
      throw misuse("no row can follow end");
    }
    if (nextSeq > FrameCodec.MAX_SEQ) {
      throw misuse("a dump holds at most " + FrameCodec.MAX_SEQ + " rows");
    }
    state = State.NUMBERING;
    return head.atSeq(nextSeq++);
  }

  private IllegalStateException misuse(String what) {
    return new IllegalStateException(
        "snapshot " + head.snapshotId() + " of " + head.store() + ": " + what);
  }
}
