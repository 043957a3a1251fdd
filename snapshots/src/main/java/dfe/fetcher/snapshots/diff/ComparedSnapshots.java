package dfe.fetcher.snapshots.diff;

import dfe.fetcher.core.change.KeyedRow;
import dfe.fetcher.core.change.RowIdentity;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The two snapshots a diff compares, read from frames of any number of snapshots: their frames go
 * to a {@link Reassembler} that tracks their status and their rows, keyed, to {@link SpilledRuns}
 * of each.
 *
 * <p>Guarantees: a frame of any other snapshot is dropped before the Reassembler sees it, so only
 * the two compared snapshots cost memory however many others the input holds. When both ids are one
 * snapshot, its rows are spilled once and {@link #from} and {@link #to} are the same runs, which
 * {@link SpilledRuns#sorted} reads twice.
 *
 * <p>Not thread-safe: one reading thread.
 */
public final class ComparedSnapshots implements Consumer<Frame> {

  private final String fromId;
  private final String toId;
  private final RowIdentity identity;
  private final Reassembler reassembler;
  private final SpilledRuns from;
  private final SpilledRuns to;

  /** The first row of either without a key; the diff is refused. */
  private Optional<String> keyless = Optional.empty();

  /**
   * @param reassembler sees the frames of the two snapshots
   * @param directory where the runs of both are spilled
   * @param budgetBytes rows of each held before a run is spilled
   */
  public ComparedSnapshots(
      String fromId,
      String toId,
      RowIdentity identity,
      Reassembler reassembler,
      Path directory,
      long budgetBytes) {
    this.fromId = fromId;
    this.toId = toId;
    this.identity = identity;
    this.reassembler = reassembler;
    this.from = new SpilledRuns(directory, "from", budgetBytes);
    this.to = fromId.equals(toId) ? from : new SpilledRuns(directory, "to", budgetBytes);
  }

  @Override
  public void accept(Frame frame) {
    String id = frame.head().snapshotId();
    if (!id.equals(fromId) && !id.equals(toId)) {
      return;
    }
    reassembler.accept(frame);
    if (frame instanceof Frame.Row row && keyless.isEmpty()) {
      if (id.equals(fromId)) {
        spill(row, from);
      } else if (id.equals(toId)) {
        spill(row, to);
      }
    }
  }

  /** The rows of the earlier snapshot. */
  public SpilledRuns from() {
    return from;
  }

  /** The rows of the later snapshot. */
  public SpilledRuns to() {
    return to;
  }

  /** Runs spilled to disk. */
  public int runs() {
    return from == to ? from.runs() : from.runs() + to.runs();
  }

  /** Why the diff is refused: a row of either snapshot without a value at the key. */
  public Optional<String> keyless() {
    return keyless;
  }

  private void spill(Frame.Row row, SpilledRuns runs) {
    RawRecord record = row.record();
    Optional<byte[]> key = identity.keyOf(record);
    if (key.isEmpty()) {
      keyless =
          Optional.of(
              "snapshots diff: snapshot "
                  + row.head().snapshotId()
                  + " seq "
                  + row.head().seq()
                  + ": the record has no value at "
                  + identity
                  + ", the key");
      return;
    }
    runs.add(new KeyedRow(key.get(), row.head().seq(), record.digest(), record.bytes()));
  }
}
