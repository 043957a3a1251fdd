package dfe.fetcher.benchmarks;

import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import org.openjdk.jol.info.GraphLayout;

/**
 * The heap a verify-only {@link Reassembler} retains per seq after it has taken every frame of one
 * shuffled snapshot of 1,000,000 rows, against the budget of {@value #BUDGET_BYTES_PER_SEQ} bytes
 * per seq.
 *
 * <p>The figure is JOL's {@link GraphLayout#totalSize()} of the object graph reachable from the
 * Reassembler, so only what the Reassembler keeps is counted: the frames are not reachable from it
 * (verify-only keeps no record) and are dropped before measuring. The used heap after a full GC,
 * before and after, is printed beside it as a cross-check. Exits 1 when the budget is exceeded.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dfe.fetcher.benchmarks.RetainedHeap [rows]}
 */
public final class RetainedHeap {

  static final int BUDGET_BYTES_PER_SEQ = 16;
  private static final int DEFAULT_ROWS = 1_000_000;

  private RetainedHeap() {}

  public static void main(String[] args) throws InvalidFrameException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROWS;
    if (rows <= 0) {
      throw new IllegalArgumentException("rows must be positive, was " + rows);
    }

    // Loads and initialises the codec, the Reassembler and their static tables before the
    // baseline, so the cross-check does not charge them to the big snapshot.
    verified(10);
    long heapBefore = usedHeapAfterGc();

    Reassembler reassembler = verified(rows);
    long heapAfter = usedHeapAfterGc();
    GraphLayout layout = GraphLayout.parseInstance(reassembler);
    long retained = layout.totalSize();
    double perSeq = (double) retained / rows;

    System.out.printf(Locale.ROOT, "rows (seqs):                %,d%n", rows);
    System.out.printf(Locale.ROOT, "JOL objects reachable:      %,d%n", layout.totalCount());
    System.out.printf(Locale.ROOT, "JOL retained bytes:         %,d%n", retained);
    System.out.printf(Locale.ROOT, "JOL bytes per seq:          %.3f%n", perSeq);
    System.out.printf(
        Locale.ROOT,
        "used-heap delta after GC:   %,d bytes (%.3f per seq, cross-check only)%n",
        heapAfter - heapBefore,
        (double) (heapAfter - heapBefore) / rows);
    System.out.println();
    System.out.println(layout.toFootprint());

    boolean met = perSeq <= BUDGET_BYTES_PER_SEQ;
    System.out.printf(
        Locale.ROOT,
        "target <= %d bytes per seq: %s%n",
        BUDGET_BYTES_PER_SEQ,
        met ? "MET" : "MISSED");
    if (!met) {
      System.exit(1);
    }
  }

  /**
   * A verify-only Reassembler that has taken every line of a shuffled snapshot of {@code rows}
   * rows, fed as bytes as {@code snapshots verify} will feed it. The lines go out of scope on
   * return, so only the Reassembler stays reachable.
   */
  private static Reassembler verified(int rows) throws InvalidFrameException {
    ShuffledSnapshot snapshot = ShuffledSnapshot.generate(rows);
    Reassembler reassembler = Reassembler.verifyOnly();
    for (byte[] line : snapshot.lines()) {
      reassembler.accept(line);
    }
    SnapshotStatus status = reassembler.status(snapshot.snapshotId()).orElseThrow();
    if (status != SnapshotStatus.COMPLETE) {
      throw new IllegalStateException("snapshot " + snapshot.snapshotId() + " ended " + status);
    }
    return reassembler;
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    // One System.gc() can leave objects that only became unreachable during it; three settle it.
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
