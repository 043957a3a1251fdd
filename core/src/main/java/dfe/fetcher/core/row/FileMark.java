package dfe.fetcher.core.row;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A file dump's position: a watermark and the files committed at or near it, enough to tell a new
 * or rewritten file from one already read.
 *
 * <p>A listed file counts as already committed when {@link #committed} holds an entry for its path
 * whose identity, size, modification time and change time all equal the file's, or when its change
 * time lies more than the dump's window before {@link #watermark} (the file dump decides the window
 * and keeps {@code committed} to the entries the watermark does not cover). The change time is the
 * inode's ({@code unix:ctime}), which the system moves on every write, rename, link and copy,
 * whatever the modification time says; where the file system has none it is the modification time.
 *
 * <p>{@link #EMPTY_WATERMARK} covers no file a real system can hold: a position read from an older
 * checkpoint form carries it, so nothing is skipped on its account.
 *
 * @param watermark the greatest change time committed, never after the time the files were listed
 * @param path the file whose end reached this position, for logs (may name a file that is gone)
 * @param committed the files committed within the window behind the watermark, one entry a path
 */
public record FileMark(Instant watermark, String path, List<CommittedFile> committed)
    implements Mark, Comparable<FileMark> {

  /** A watermark that covers nothing. */
  public static final Instant EMPTY_WATERMARK = Instant.EPOCH;

  private static final Comparator<FileMark> ORDER =
      Comparator.comparing(FileMark::watermark).thenComparing(FileMark::path);

  public FileMark {
    Objects.requireNonNull(watermark, "watermark");
    Objects.requireNonNull(path, "path");
    committed = List.copyOf(committed);
  }

  /** A position at {@code watermark} with no entries, reached at {@code path}. */
  public FileMark(Instant watermark, String path) {
    this(watermark, path, List.of());
  }

  /** The entry for {@code path}, if one is kept. */
  public Optional<CommittedFile> committedAt(String path) {
    return committed.stream().filter(file -> file.path().equals(path)).findFirst();
  }

  @Override
  public Kind kind() {
    return Kind.FILE;
  }

  /** Orders positions by (watermark, path); the entries play no part. */
  @Override
  public int compareTo(FileMark other) {
    return ORDER.compare(this, other);
  }

  /** Whether this position's (watermark, path) comes after {@code other}'s. */
  public boolean isAfter(FileMark other) {
    return compareTo(other) > 0;
  }

  /**
   * One committed file as it was when it was listed.
   *
   * @param path the file's normalized absolute path, symbolic links not resolved
   * @param identity the file system's key for the file (device and inode on Unix), or empty where
   *     the file system has none
   * @param size its size in bytes
   * @param modifiedAt its modification time
   * @param changedAt its change time (the modification time where the file system has none)
   */
  public record CommittedFile(
      String path, String identity, long size, Instant modifiedAt, Instant changedAt) {

    public CommittedFile {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(modifiedAt, "modifiedAt");
      Objects.requireNonNull(changedAt, "changedAt");
    }
  }
}
