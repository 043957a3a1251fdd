package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps a {@link TargetTable} equal to the latest complete snapshot of one store from frames that
 * arrive in any order and any number of times.
 *
 * <p>Each snapshot's rows are staged in its staging table as they arrive (never all of a snapshot
 * in memory: a verify-only {@link Reassembler} tracks status); {@link #settle} swaps in the newest
 * complete snapshot and drops the staging of every older one. A conflicting snapshot is dropped and
 * reported; an open or truncated one waits, staged, until it completes, a newer one is swapped in,
 * or a newer snapshot of its store begins (its dump was abandoned). Frames of a snapshot not newer
 * than the one the table holds are ignored.
 *
 * <p>Positions: frames may be tagged with the Kafka partition and offset they came from ({@link
 * #at}); {@link #committable} is, per partition, the first offset of a snapshot still waiting, so
 * committing it never skips a frame that a restart would need.
 *
 * <p>Not thread-safe: one reading thread.
 */
public final class SnapshotApplier {

  private static final int STAGE_ROWS = 2000;
  private static final long STAGE_BYTES = 4L << 20;

  private final TargetTable target;
  private final StagingTables staging;
  private final SnapshotSwap swap;
  private final Optional<String> onlyStore;
  private final ChangePublisher publisher;
  private final PrintStream progress;
  private final ApplyMetrics metrics;
  private final Reassembler reassembler = Reassembler.verifyOnly();
  private final Map<String, Waiting> waiting = new HashMap<>();

  /** The first offset per partition of each refused snapshot no newer one has replaced. */
  private final Map<String, Map<Integer, Long>> refusedFirstOffsets = new HashMap<>();

  private final Set<String> done = new HashSet<>();

  /** Per store, the newest snapshot any frame was read of. */
  private final Map<String, String> newestRead = new HashMap<>();

  private Optional<TargetTable.Held> held;
  private int partition = -1;
  private long offset = -1;
  private long appliedSnapshots;
  private long unapplied;

  /**
   * @param onlyStore the store whose snapshots go into the table; when empty, the store the table
   *     already holds, else the store of the first snapshot swapped in
   * @param progress where one line per snapshot outcome is printed
   * @param metrics counted as the lines are printed
   */
  public SnapshotApplier(
      TargetTable target,
      Optional<String> onlyStore,
      ChangePublisher publisher,
      PrintStream progress,
      ApplyMetrics metrics)
      throws SQLException {
    this.target = target;
    this.staging = new StagingTables(target);
    this.swap = new SnapshotSwap(target, staging);
    this.onlyStore = onlyStore;
    this.publisher = publisher;
    this.progress = progress;
    this.metrics = metrics;
    this.held = target.held();
    if (held.isPresent()) {
      staging.dropNotNewerThan(held.get().snapshotId());
    }
    long pending = swap.publishPending(publisher);
    if (pending > 0) {
      progress.println("published-pending changes=" + pending + " table=" + target.name());
      progress.flush();
    }
  }

  /** Tags the frames accepted next with the Kafka position they were read from. */
  public void at(int partition, long offset) {
    this.partition = partition;
    this.offset = offset;
  }

  /** Stages one frame; nothing is swapped until {@link #settle}. */
  public void accept(Frame frame) throws SQLException {
    FrameHead head = frame.head();
    String id = head.snapshotId();
    newestRead.merge(head.store(), id, (a, b) -> SnapshotOrder.compare(a, b) >= 0 ? a : b);
    if (done.contains(id)) {
      return;
    }
    Waiting snapshot = waiting.get(id);
    if (snapshot == null) {
      Optional<String> skip = skipReason(id, head.store());
      if (skip.isPresent()) {
        done.add(id);
        line("skipped", id, head.store(), skip.get());
        return;
      }
      staging.create(id);
      snapshot = new Waiting(id, head.store());
      waiting.put(id, snapshot);
    }
    if (partition >= 0) {
      snapshot.firstOffsets.merge(partition, offset, Math::min);
    }
    reassembler.accept(frame);
    if (frame instanceof Frame.Row row) {
      snapshot.add(head.seq(), row.record().bytes());
      if (snapshot.count >= STAGE_ROWS || snapshot.bytes >= STAGE_BYTES) {
        snapshot.flush();
      }
    }
  }

  /**
   * Drops conflicting snapshots, then swaps in the newest complete one (if newer than the table's)
   * and drops every snapshot older than what the table then holds.
   */
  public void settle() throws SQLException {
    for (Waiting snapshot : List.copyOf(waiting.values())) {
      if (reassembler.status(snapshot.id).orElseThrow() == SnapshotStatus.CONFLICT) {
        SnapshotReport report = reassembler.report(snapshot.id).orElseThrow();
        finish(snapshot);
        unapplied++;
        line(
            "skipped",
            snapshot.id,
            snapshot.store,
            "status=conflict reason=\"" + String.join("; ", report.conflicts()) + "\"");
      }
    }
    for (Waiting snapshot : List.copyOf(waiting.values())) {
      if (snapshot.refusal != null) {
        refuse(snapshot);
      }
    }
    List<Waiting> complete =
        waiting.values().stream()
            .filter(s -> reassembler.status(s.id).orElseThrow() == SnapshotStatus.COMPLETE)
            .sorted(Comparator.comparing((Waiting s) -> s.id, SnapshotOrder::compare).reversed())
            .collect(Collectors.toList());
    for (Waiting candidate : complete) {
      if (!waiting.containsKey(candidate.id)) {
        continue; // superseded by a newer one swapped in during this settle
      }
      Optional<String> skip = skipReason(candidate.id, candidate.store);
      if (skip.isPresent()) {
        finish(candidate);
        line("skipped", candidate.id, candidate.store, skip.get());
        continue;
      }
      candidate.flush();
      if (!waiting.containsKey(candidate.id)) {
        continue; // superseded by a snapshot another apply swapped in
      }
      if (candidate.refusal != null) {
        refuse(candidate);
        continue;
      }
      SnapshotReport report = reassembler.report(candidate.id).orElseThrow();
      long rowCount = report.rowCount().orElseThrow();
      SnapshotSwap.Result swapped = swap.swap(candidate.id, candidate.store, rowCount, publisher);
      ChangeCounts changes = swapped.changes();
      switch (swapped.outcome()) {
        case APPLIED -> {
          forget(candidate);
          held = Optional.of(new TargetTable.Held(candidate.id, candidate.store));
          appliedSnapshots++;
          metrics.applied(report.rows(), changes);
          line(
              "applied",
              candidate.id,
              candidate.store,
              "rows="
                  + report.rows()
                  + " stubs="
                  + report.stubs()
                  + (changes.counted()
                      ? " added="
                          + changes.added()
                          + " removed="
                          + changes.removed()
                          + " changed="
                          + changes.changed()
                      : "")
                  + " table="
                  + target.name());
          dropOlderThan(candidate.id);
        }
        case NOT_NEWER -> {
          // Another apply swapped a newer snapshot in meanwhile.
          finish(candidate);
          line(
              "skipped",
              candidate.id,
              candidate.store,
              "status=not-newer table_holds=" + swapped.detail());
          catchUp();
        }
        case REFUSED -> {
          holdOffsets(candidate);
          finish(candidate);
          unapplied++;
          line("refused", candidate.id, candidate.store, "reason=\"" + swapped.detail() + "\"");
        }
      }
    }
    dropAbandoned();
  }

  /**
   * Drops every open or truncated snapshot older than a snapshot of its store read since. A store's
   * snapshots are written one after another, and a store's frames travel on one partition in the
   * order written, so once a newer snapshot has begun the older one's dump was abandoned (its tick
   * failed or was stopped): its missing frames will not come. Without this, every failing dump
   * would stay staged and hold the committed offsets until a dump of the store succeeds.
   */
  private void dropAbandoned() throws SQLException {
    for (Waiting snapshot : List.copyOf(waiting.values())) {
      String newest = newestRead.get(snapshot.store);
      if (SnapshotOrder.compare(snapshot.id, newest) < 0) {
        SnapshotStatus status = reassembler.status(snapshot.id).orElseThrow();
        finish(snapshot);
        line(
            "abandoned",
            snapshot.id,
            snapshot.store,
            "status=" + status.wireName() + " newer=" + newest);
      }
    }
  }

  /**
   * Reports every snapshot still waiting (open or truncated) as not applied. Their staging stays,
   * so a later run that reads their remaining frames can still complete them.
   */
  public void reportWaiting() {
    List<Waiting> left = new ArrayList<>(waiting.values());
    left.sort(Comparator.comparing((Waiting s) -> s.id, SnapshotOrder::compare));
    for (Waiting snapshot : left) {
      SnapshotReport report = reassembler.report(snapshot.id).orElseThrow();
      String detail = "status=" + report.status().wireName();
      if (report.status() == SnapshotStatus.TRUNCATED) {
        detail +=
            " missing="
                + report.missing().stream()
                    .limit(10)
                    .map(String::valueOf)
                    .collect(Collectors.joining(","));
      }
      unapplied++;
      line("not-applied", snapshot.id, snapshot.store, detail);
    }
  }

  /**
   * Per partition, the offset a consumer may commit: {@code positions}' offset, or the first offset
   * of a snapshot still waiting when that is lower.
   */
  public Map<Integer, Long> committable(Map<Integer, Long> positions) {
    Map<Integer, Long> committable = new HashMap<>(positions);
    List<Map<Integer, Long>> holds = new ArrayList<>(refusedFirstOffsets.values());
    waiting.values().forEach(snapshot -> holds.add(snapshot.firstOffsets));
    for (Map<Integer, Long> firstOffsets : holds) {
      firstOffsets.forEach(
          (p, first) ->
              committable.computeIfPresent(p, (key, position) -> Math.min(position, first)));
    }
    return committable;
  }

  /**
   * A refused snapshot holds the offsets at its first frame until a newer snapshot is swapped in: a
   * rerun with columns that fit its rows reads it again instead of finding nothing to do.
   */
  private void holdOffsets(Waiting snapshot) {
    refusedFirstOffsets.put(snapshot.id, Map.copyOf(snapshot.firstOffsets));
  }

  /** Snapshots swapped in so far. */
  public long appliedSnapshots() {
    return appliedSnapshots;
  }

  /** Snapshots conflicting, refused, or reported waiting: not applied and not superseded. */
  public long unappliedSnapshots() {
    return unapplied;
  }

  /** Why frames of {@code id} go nowhere, in {@code status=...} form; empty when they may. */
  private Optional<String> skipReason(String id, String store) {
    if (onlyStore.isPresent() && !onlyStore.get().equals(store)) {
      return Optional.of("status=other-store table_store=" + onlyStore.get());
    }
    if (held.isPresent()) {
      if (onlyStore.isEmpty() && !held.get().store().equals(store)) {
        return Optional.of("status=other-store table_store=" + held.get().store());
      }
      if (SnapshotOrder.compare(id, held.get().snapshotId()) <= 0) {
        return Optional.of("status=not-newer table_holds=" + held.get().snapshotId());
      }
    }
    return Optional.empty();
  }

  /**
   * Another apply swapped a newer snapshot into the table (and dropped the staging of the older
   * ones): takes in what the table holds now and drops, as superseded, every snapshot older.
   */
  private void catchUp() throws SQLException {
    held = target.held();
    if (held.isPresent()) {
      dropOlderThan(held.get().snapshotId());
    }
  }

  private void dropOlderThan(String appliedId) throws SQLException {
    for (Waiting snapshot : List.copyOf(waiting.values())) {
      if (SnapshotOrder.compare(snapshot.id, appliedId) < 0) {
        SnapshotStatus status = reassembler.status(snapshot.id).orElseThrow();
        finish(snapshot);
        line(
            "superseded",
            snapshot.id,
            snapshot.store,
            "status=" + status.wireName() + " by=" + appliedId);
      }
    }
    staging.dropNotNewerThan(appliedId);
    refusedFirstOffsets.keySet().removeIf(id -> SnapshotOrder.compare(id, appliedId) < 0);
  }

  private void refuse(Waiting snapshot) throws SQLException {
    holdOffsets(snapshot);
    finish(snapshot);
    unapplied++;
    line("refused", snapshot.id, snapshot.store, "reason=\"" + snapshot.refusal + "\"");
  }

  /** Drops a snapshot's staging and stops tracking it; its later frames are ignored. */
  private void finish(Waiting snapshot) throws SQLException {
    staging.drop(snapshot.id);
    forget(snapshot);
  }

  private void forget(Waiting snapshot) {
    waiting.remove(snapshot.id);
    reassembler.forget(snapshot.id);
    done.add(snapshot.id);
  }

  private void line(String outcome, String id, String store, String detail) {
    metrics.snapshot(outcome);
    progress.println(outcome + " snapshot=" + id + " store=" + store + " " + detail);
    progress.flush();
  }

  /** A snapshot being staged: its unflushed rows and the first offset of it per partition. */
  private final class Waiting {
    private final String id;
    private final String store;
    private final Map<Integer, Long> firstOffsets = new HashMap<>();
    private long[] seqs = new long[64];
    private byte[][] records = new byte[64][];
    private int count;
    private long bytes;

    /** Why the database would not stage a row of it; set once, then nothing more is staged. */
    private String refusal;

    Waiting(String id, String store) {
      this.id = id;
      this.store = store;
    }

    void add(long seq, byte[] record) {
      if (refusal != null) {
        return;
      }
      if (count == seqs.length) {
        seqs = Arrays.copyOf(seqs, count * 2);
        records = Arrays.copyOf(records, count * 2);
      }
      seqs[count] = seq;
      records[count] = record;
      count++;
      bytes += record.length;
    }

    void flush() throws SQLException {
      if (count > 0) {
        try {
          staging.stage(id, seqs, records, count);
        } catch (SQLException e) {
          if (RowsFault.isUndefinedTable(e)) {
            // Dropped by another apply that swapped a newer snapshot in: this one is superseded.
            catchUp();
            if (!waiting.containsKey(id)) {
              return;
            }
          }
          if (!RowsFault.isRowsFault(e)) {
            throw e;
          }
          refusal =
              RowsFault.reasonOf(
                  e.getNextException() != null
                      ? e.getNextException().getMessage()
                      : e.getMessage());
        }
        Arrays.fill(records, 0, count, null);
        count = 0;
        bytes = 0;
      }
    }
  }
}
