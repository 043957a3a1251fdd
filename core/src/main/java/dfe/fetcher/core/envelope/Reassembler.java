package dfe.fetcher.core.envelope;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Rebuilds snapshots from frames that arrive in any order and any number of times.
 *
 * <p>Per {@code snapshot_id} it tracks which seqs arrived as rows and as stubs (bitmaps), a 64-bit
 * digest of each seq's canonical JSON (so a repeated seq with another record is caught, whatever
 * its key order), and the end's {@code row_count}. A snapshot is {@link SnapshotStatus#COMPLETE}
 * when an end arrived, every seq in {@code 0..row_count} is present as a row or a stub, and nothing
 * conflicts; the begin frame is not required. Records themselves are kept only for the snapshots
 * the retention predicate selects, so verifying costs about 8 bytes per seq whatever the records
 * weigh; {@link #forget} drops a snapshot once the caller has taken it.
 *
 * <p>Not thread-safe: feed it from one thread, or guard it.
 */
public final class Reassembler {

  /** How many missing seqs a report lists. */
  public static final int REPORTED_MISSING = 100;

  private static final int KEPT_CONFLICT_REASONS = 10;

  private final Predicate<String> retainRecordsOf;
  private final Map<String, Snapshot> snapshots = new HashMap<>();
  private final FrameParser parser = new FrameParser();

  private Reassembler(Predicate<String> retainRecordsOf) {
    this.retainRecordsOf = retainRecordsOf;
  }

  /** Tracks status only: no record is retained, so {@link #rows} is unavailable. */
  public static Reassembler verifyOnly() {
    return new Reassembler(id -> false);
  }

  /** Retains the records of every snapshot, so {@link #rows} works for each complete one. */
  public static Reassembler retainingRecords() {
    return new Reassembler(id -> true);
  }

  /** Retains records only of the snapshots whose id {@code snapshotIds} accepts. */
  public static Reassembler retainingRecordsOf(Predicate<String> snapshotIds) {
    return new Reassembler(snapshotIds);
  }

  /** Parses {@code json} as one frame and feeds it. Nothing changes when it is not a frame. */
  public void accept(byte[] json) throws InvalidFrameException {
    accept(parser.parse(json));
  }

  /** Feeds one frame. Feeding the same frame again changes nothing. */
  public void accept(Frame frame) {
    FrameHead head = frame.head();
    if (head.seq() > FrameCodec.MAX_SEQ) {
      throw new IllegalArgumentException(
          "seq " + head.seq() + " of snapshot " + head.snapshotId() + " is beyond the largest seq");
    }
    Snapshot snapshot =
        snapshots.computeIfAbsent(
            head.snapshotId(), id -> new Snapshot(id, head.store(), retainRecordsOf.test(id)));
    if (!snapshot.store.equals(head.store())) {
      snapshot.conflict(
          "frames disagree on the store: \"" + snapshot.store + "\" and \"" + head.store() + "\"");
    }
    int seq = (int) head.seq();
    switch (frame.kind()) {
      case BEGIN -> snapshot.begun = true;
      case ROW -> snapshot.acceptRow(seq, ((Frame.Row) frame).record());
      case OVERSIZE -> snapshot.acceptStub(seq, (Frame.Oversize) frame);
      case END -> snapshot.acceptEnd((Frame.End) frame);
    }
  }

  /** Every snapshot seen and not forgotten, sorted by {@code snapshot_id}. */
  public List<SnapshotReport> reports() {
    List<SnapshotReport> reports = new ArrayList<>(snapshots.size());
    for (Snapshot snapshot : snapshots.values()) {
      reports.add(snapshot.report());
    }
    reports.sort(Comparator.comparing(SnapshotReport::snapshotId));
    return reports;
  }

  public Optional<SnapshotReport> report(String snapshotId) {
    return Optional.ofNullable(snapshots.get(snapshotId)).map(Snapshot::report);
  }

  public Optional<SnapshotStatus> status(String snapshotId) {
    return Optional.ofNullable(snapshots.get(snapshotId)).map(Snapshot::status);
  }

  /** Up to {@code limit} seqs in {@code 0..row_count} that have not arrived, ascending. */
  public List<Long> missing(String snapshotId, int limit) {
    Snapshot snapshot = snapshots.get(snapshotId);
    return snapshot == null || snapshot.rowCount < 0 ? List.of() : snapshot.firstMissing(limit);
  }

  /**
   * The records of a complete snapshot in seq order, stubs excluded.
   *
   * @throws IllegalStateException when the snapshot is unknown, not complete, or its records were
   *     not retained
   */
  public List<RawRecord> rows(String snapshotId) {
    Snapshot snapshot = completeWithRecords(snapshotId);
    List<RawRecord> records = new ArrayList<>(snapshot.rows.getCardinality());
    IntIterator seqs = snapshot.rows.getIntIterator();
    while (seqs.hasNext()) {
      records.add(snapshot.seqTable.record(seqs.next()));
    }
    return records;
  }

  /**
   * The stubs of a complete snapshot: seq to {@code row_key}, empty where the stub carried none.
   *
   * @throws IllegalStateException as {@link #rows}
   */
  public SortedMap<Long, Optional<String>> stubKeys(String snapshotId) {
    Snapshot snapshot = completeWithRecords(snapshotId);
    SortedMap<Long, Optional<String>> keys = new TreeMap<>();
    snapshot.stubKeys.forEach(
        (seq, key) -> keys.put(Integer.toUnsignedLong(seq), Optional.ofNullable(key)));
    return Collections.unmodifiableSortedMap(keys);
  }

  /** The complete snapshot of {@code store} with the greatest UUIDv7, if any is complete. */
  public Optional<String> latestComplete(String store) {
    return snapshots.values().stream()
        .filter(snapshot -> snapshot.store.equals(store))
        .filter(snapshot -> snapshot.status() == SnapshotStatus.COMPLETE)
        .map(snapshot -> snapshot.id)
        .max(Comparator.comparing(id -> id.toLowerCase(Locale.ROOT)));
  }

  /** Drops everything known about a snapshot; a frame of it arriving later starts it afresh. */
  public void forget(String snapshotId) {
    snapshots.remove(snapshotId);
  }

  private Snapshot completeWithRecords(String snapshotId) {
    Snapshot snapshot = snapshots.get(snapshotId);
    if (snapshot == null) {
      throw new IllegalStateException("snapshot " + snapshotId + " has not been seen");
    }
    SnapshotStatus status = snapshot.status();
    if (status != SnapshotStatus.COMPLETE) {
      throw new IllegalStateException(
          "snapshot " + snapshotId + " is " + status.wireName() + ", not complete");
    }
    if (!snapshot.seqTable.keepsRecords()) {
      throw new IllegalStateException("the records of snapshot " + snapshotId + " were not kept");
    }
    return snapshot;
  }

  /** The state of one snapshot. */
  private static final class Snapshot {
    private final String id;
    private final String store;
    private final RoaringBitmap rows = new RoaringBitmap();
    private final RoaringBitmap stubs = new RoaringBitmap();
    private final PagedSeqTable seqTable;
    private final Map<Integer, String> stubKeys;
    private final List<String> conflicts = new ArrayList<>(0);
    private boolean begun;
    private long rowCount = -1;
    private boolean endsDisagree;

    Snapshot(String id, String store, boolean retainRecords) {
      this.id = id;
      this.store = store;
      this.seqTable = new PagedSeqTable(retainRecords);
      this.stubKeys = retainRecords ? new HashMap<>() : null;
    }

    void acceptRow(int seq, RawRecord record) {
      long digest = record.digest();
      // Stubs are rare: skip the lookup when there are none.
      boolean alsoStub = !stubs.isEmpty() && stubs.contains(seq);
      if (alsoStub) {
        conflict(bothRowAndStub(seq));
      }
      if (!rows.checkedAdd(seq)) {
        if (!alsoStub && seqTable.digest(seq) != digest) {
          conflict("seq " + unsigned(seq) + " arrived with two different records");
        }
        return;
      }
      if (!alsoStub) {
        seqTable.putDigest(seq, digest);
      }
      if (seqTable.keepsRecords()) {
        seqTable.putRecord(seq, record);
      }
    }

    void acceptStub(int seq, Frame.Oversize stub) {
      long digest = 31 * Long.hashCode(stub.bytes()) + stub.rowKey().hashCode();
      boolean alsoRow = !rows.isEmpty() && rows.contains(seq);
      if (alsoRow) {
        conflict(bothRowAndStub(seq));
      }
      if (!stubs.checkedAdd(seq)) {
        if (!alsoRow && seqTable.digest(seq) != digest) {
          conflict("seq " + unsigned(seq) + " arrived as two different oversize stubs");
        }
        return;
      }
      if (!alsoRow) {
        seqTable.putDigest(seq, digest);
      }
      if (stubKeys != null) {
        stubKeys.put(seq, stub.rowKey().orElse(null));
      }
    }

    void acceptEnd(Frame.End end) {
      if (end.head().seq() != end.rowCount()) {
        conflict(
            "an end frame's seq "
                + end.head().seq()
                + " differs from its row_count "
                + end.rowCount());
      }
      if (rowCount < 0) {
        rowCount = end.rowCount();
      } else if (rowCount != end.rowCount()) {
        endsDisagree = true;
        conflict("end frames disagree: row_count " + rowCount + " and " + end.rowCount());
      }
    }

    void conflict(String reason) {
      if (conflicts.size() < KEPT_CONFLICT_REASONS && !conflicts.contains(reason)) {
        conflicts.add(reason);
      }
    }

    SnapshotStatus status() {
      if (!conflicts.isEmpty() || seqBeyondRowCount().isPresent()) {
        return SnapshotStatus.CONFLICT;
      }
      if (rowCount < 0) {
        return SnapshotStatus.OPEN;
      }
      return rows.getLongCardinality() + stubs.getLongCardinality() == rowCount
          ? SnapshotStatus.COMPLETE
          : SnapshotStatus.TRUNCATED;
    }

    SnapshotReport report() {
      List<String> reasons = new ArrayList<>(conflicts);
      seqBeyondRowCount()
          .ifPresent(seq -> reasons.add("seq " + seq + " is at or beyond row_count " + rowCount));
      SnapshotStatus status = status();
      return new SnapshotReport(
          id,
          store,
          status,
          rowCount < 0 || endsDisagree ? OptionalLong.empty() : OptionalLong.of(rowCount),
          rows.getLongCardinality(),
          stubs.getLongCardinality(),
          begun,
          status == SnapshotStatus.TRUNCATED ? firstMissing(REPORTED_MISSING) : List.of(),
          reasons);
    }

    /** The greatest seq seen when it is at or beyond the (agreed) row count. */
    private Optional<Long> seqBeyondRowCount() {
      if (rowCount < 0 || endsDisagree) {
        return Optional.empty();
      }
      long last = Math.max(lastSeq(rows), lastSeq(stubs));
      return last >= rowCount ? Optional.of(last) : Optional.empty();
    }

    List<Long> firstMissing(int limit) {
      RoaringBitmap present = RoaringBitmap.or(rows, stubs);
      List<Long> missing = new ArrayList<>(Math.min(limit, 16));
      long from = 0;
      while (missing.size() < limit && from < rowCount) {
        long absent = present.nextAbsentValue((int) from);
        if (absent < 0 || absent >= rowCount) {
          break;
        }
        missing.add(absent);
        from = absent + 1;
      }
      return missing;
    }

    private static long lastSeq(RoaringBitmap seqs) {
      return seqs.isEmpty() ? -1 : Integer.toUnsignedLong(seqs.last());
    }

    private static String bothRowAndStub(int seq) {
      return "seq " + unsigned(seq) + " arrived both as a row and as an oversize stub";
    }

    private static long unsigned(int seq) {
      return Integer.toUnsignedLong(seq);
    }
  }
}
