package dfe.fetcher.core.envelope;

import java.util.List;
import java.util.OptionalLong;

/**
 * What the Reassembler knows about one snapshot.
 *
 * @param snapshotId the snapshot
 * @param store the store of its frames
 * @param status complete, truncated, open or conflict
 * @param rowCount the end's {@code row_count}; empty without an end or when ends disagree
 * @param rows distinct seqs seen as rows
 * @param stubs distinct seqs seen as oversize stubs
 * @param begun whether the begin frame was seen
 * @param missing the first missing seqs, ascending; empty unless truncated
 * @param conflicts why the snapshot conflicts, one sentence per reason; empty unless conflict
 */
public record SnapshotReport(
    String snapshotId,
    String store,
    SnapshotStatus status,
    OptionalLong rowCount,
    long rows,
    long stubs,
    boolean begun,
    List<Long> missing,
    List<String> conflicts) {

  public SnapshotReport {
    missing = List.copyOf(missing);
    conflicts = List.copyOf(conflicts);
  }
}
