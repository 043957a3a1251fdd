package dfe.fetcher.core.row;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a resumable dump ({@code resume: by_key}) stands: the snapshot it is writing, the seq its
 * next row takes, and the key of the last row read, so a restarted or failed tick continues the
 * same snapshot instead of opening a new one. The driver writes it; the source only reads {@link
 * #lastKey} to continue after it.
 *
 * <p>A mark is committed after each acknowledged chunk ({@link #ended} false), and once the
 * snapshot's {@code end} is acknowledged it is replaced by one with {@link #ended} true: the next
 * tick then opens a new snapshot.
 *
 * @param snapshotId the open (or, when ended, the last) snapshot
 * @param snapshotAt its {@code snapshot_at}, as it travels (RFC 3339 with milliseconds)
 * @param nextSeq the seq of the next row or stub: every seq below it was acknowledged
 * @param lastKey the key of the last row read before {@code nextSeq}'s; empty when no row was
 * @param anchorMillis the epoch millisecond before which the last acknowledged frame (the row at
 *     {@code nextSeq - 1}, or the begin) was not yet handed to the transport: a read-back of what
 *     landed starts there
 * @param ended the snapshot's end was acknowledged
 */
public record DumpResumeMark(
    String snapshotId,
    String snapshotAt,
    long nextSeq,
    Optional<KeysetMark> lastKey,
    long anchorMillis,
    boolean ended)
    implements Mark {

  public DumpResumeMark {
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(snapshotAt, "snapshotAt");
    Objects.requireNonNull(lastKey, "lastKey");
    if (nextSeq < 0) {
      throw new IllegalArgumentException("nextSeq must not be negative, was " + nextSeq);
    }
  }

  /** The same snapshot, its end acknowledged. */
  public DumpResumeMark asEnded() {
    return new DumpResumeMark(snapshotId, snapshotAt, nextSeq, lastKey, anchorMillis, true);
  }

  @Override
  public Kind kind() {
    return Kind.DUMP_RESUME;
  }
}
