package dfe.fetcher.row;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * A file dump's position: the greatest (change time, path) pair whose file was committed. Compared
 * as a pair, so two files changed in the same instant are both read, and a file rewritten in place
 * (a later change time) is read again.
 *
 * @param changedAt the file's last-modified time, at the precision the file system keeps
 * @param path the file's path as the unit resolved it
 */
public record FileMark(Instant changedAt, String path) implements Mark, Comparable<FileMark> {

  private static final Comparator<FileMark> ORDER =
      Comparator.comparing(FileMark::changedAt).thenComparing(FileMark::path);

  public FileMark {
    Objects.requireNonNull(changedAt, "changedAt");
    Objects.requireNonNull(path, "path");
  }

  @Override
  public Kind kind() {
    return Kind.FILE;
  }

  @Override
  public int compareTo(FileMark other) {
    return ORDER.compare(this, other);
  }

  /** Whether a file at this position comes after the committed {@code checkpoint}. */
  public boolean isAfter(FileMark checkpoint) {
    return compareTo(checkpoint) > 0;
  }
}
