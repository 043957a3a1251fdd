package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotIdGenerator;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The envelope of one dump unit's tick, and nothing else: a snapshot per part, rows and stubs
 * numbered from 0 with no hole, an oversize record turned into a stub plus a dead letter, and a row
 * the filter drops giving its seq back. It sends nothing; the tick hands what it returns on.
 */
final class EnvelopeStage {

  /** A frame to send, with the dead letter that goes with it (an oversize stub's DLQ copy). */
  record Enveloped(Frame frame, Optional<DeadLetter> deadLetter) {
    static Enveloped of(Frame frame) {
      return new Enveloped(frame, Optional.empty());
    }
  }

  private final String store;
  private final Clock clock;
  private final SnapshotIdGenerator ids;
  private final OversizePolicy oversize;
  private final FilterStep filter;
  private final Optional<RowKey> rowKey;
  private SnapshotWriter writer;

  EnvelopeStage(
      String store,
      Clock clock,
      SnapshotIdGenerator ids,
      OversizePolicy oversize,
      FilterStep filter,
      Optional<RowKey> rowKey) {
    this.store = store;
    this.clock = clock;
    this.ids = ids;
    this.oversize = oversize;
    this.filter = filter;
    this.rowKey = rowKey;
  }

  boolean isOpen() {
    return writer != null;
  }

  /** Opens a snapshot: its begin frame. */
  Enveloped begin(OptionalLong total) {
    if (writer != null) {
      throw new IllegalStateException(
          "unit " + store + ": a dump part began before the previous one ended");
    }
    writer = SnapshotWriter.open(store, clock, ids);
    return Enveloped.of(total.isPresent() ? writer.begin(total.getAsLong()) : writer.begin());
  }

  /**
   * Continues the snapshot {@code mark} names, at its next seq, without a begin (the tick that
   * opened it sent that).
   */
  void resume(DumpResumeMark mark) {
    if (writer != null) {
      throw new IllegalStateException(
          "unit " + store + ": a dump part resumed before the previous one ended");
    }
    writer =
        SnapshotWriter.resume(store, mark.snapshotId(), mark.snapshotAt(), mark.nextSeq(), clock);
  }

  /** The open snapshot's id; only while one is open. */
  String snapshotId() {
    return writer.snapshotId();
  }

  /** The open snapshot's {@code snapshot_at}; only while one is open. */
  String snapshotAt() {
    return writer.snapshotAt();
  }

  /**
   * The frame for {@code content} at the next seq: a row frame, or an oversize stub with its dead
   * letter (for an oversize record and for one the source did not keep alike); empty when the
   * filter dropped the row (its seq is given back).
   */
  Optional<Enveloped> row(Row.Content content) {
    Optional<Row.NotKept> tooLong = content.oversize(oversize, rowKey);
    if (tooLong.isPresent()) {
      Row.NotKept notKept = tooLong.get();
      Frame.Oversize stub =
          notKept.rowKey().isPresent()
              ? writer.oversize(notKept.bytes(), notKept.rowKey().get())
              : writer.oversize(notKept.bytes());
      DeadLetter letter =
          new DeadLetter(
              oversize.reason(notKept.bytes()),
              OptionalLong.of(stub.head().seq()),
              notKept.dlqCopy(),
              "oversize");
      return Optional.of(new Enveloped(stub, Optional.of(letter)));
    }
    RawRecord record = content.whole();
    Frame.Row frame = writer.row(record);
    if (!filter.keepRow(frame)) {
      writer.giveBack(frame);
      return Optional.empty();
    }
    return Optional.of(Enveloped.of(frame));
  }

  /** Closes the snapshot: its end frame, counting every row and stub numbered. */
  Enveloped end() {
    Frame.End end = writer.end();
    writer = null;
    return Enveloped.of(end);
  }

  /** Drops the open snapshot, if any, without an end; true when one was open. */
  boolean abandon() {
    boolean open = writer != null;
    writer = null;
    return open;
  }

  /** The seq the open snapshot would give its next row, for error messages. */
  OptionalLong nextSeq() {
    return writer == null ? OptionalLong.empty() : OptionalLong.of(writer.nextSeq());
  }

  /**
   * The stub that takes the place of a row frame the destination refused as too large: same
   * snapshot, same seq, the record's size and key.
   */
  Frame.Oversize stubInPlaceOf(Frame.Row refused) {
    RawRecord record = refused.record();
    return new Frame.Oversize(
        refused.head(), record.length(), rowKey.flatMap(pointer -> pointer.of(record)));
  }
}
