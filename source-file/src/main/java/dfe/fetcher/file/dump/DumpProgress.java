package dfe.fetcher.file.dump;

import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.FileMark.CommittedFile;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where one read of a file dump has got to: which listed files are already committed, and the
 * position to end each file with.
 *
 * <p>The rules, which together mean no file is hidden by a tie, a late arrival or a clock step:
 *
 * <ul>
 *   <li>A file is committed when the position holds an entry for its path with the same identity,
 *       size, modification time and change time, or when its change time is more than {@link
 *       #WINDOW} before the watermark. Anything else is read: a new file, one renamed, copied or
 *       linked in (the system sets its change time then, whatever its modification time), one
 *       rewritten in place (any write moves the change time, {@code touch -d} included).
 *   <li>The watermark moves up to the change time of each file committed, but never past the time
 *       the files were listed, nor past the change time of a file this read held back (not settled,
 *       changed while read): such a file stays inside the window until it is committed. A watermark
 *       found after the listing time (the clock stepped back) is lowered to it, so a file the
 *       stepped clock stamps is not covered.
 *   <li>Entries are kept for files this read listed whose change time lies within the window behind
 *       the watermark, so the position stays as small as the files changed in the last {@link
 *       #WINDOW}. The window exceeds a listing's length and any file system's timestamp step, so a
 *       file that arrives during a listing, or in the same timestamp as the last file committed, is
 *       still within it.
 * </ul>
 */
final class DumpProgress {

  /** How far behind the watermark a file must have changed to count committed without an entry. */
  static final Duration WINDOW = Duration.ofMinutes(10);

  private final Instant listedAt;
  private final Set<String> listed;
  private final Map<String, CommittedFile> committed = new LinkedHashMap<>();
  private Instant watermark;
  private String path;
  private Optional<Instant> heldBackFrom = Optional.empty();

  /**
   * @param checkpoint the committed position, or empty
   * @param listedAt when the listing ended, by the clock that stamps change times
   * @param listed the paths the listing found, whose entries are worth keeping
   */
  DumpProgress(Optional<FileMark> checkpoint, Instant listedAt, Set<String> listed) {
    this.listedAt = listedAt;
    this.listed = Set.copyOf(listed);
    Instant start = checkpoint.map(FileMark::watermark).orElse(FileMark.EMPTY_WATERMARK);
    this.watermark = start.isAfter(listedAt) ? listedAt : start;
    this.path = checkpoint.map(FileMark::path).orElse("");
    checkpoint.ifPresent(
        mark -> mark.committed().forEach(file -> committed.put(file.path(), file)));
  }

  /** Whether {@code file}, as listed, was committed before. */
  boolean isCommitted(CommittedFile file) {
    CommittedFile entry = committed.get(file.path());
    return file.equals(entry) || file.changedAt().isBefore(watermark.minus(WINDOW));
  }

  /** {@code file} was not taken this read and must stay where the watermark does not cover it. */
  void holdBack(CommittedFile file) {
    Instant from = file.changedAt();
    if (heldBackFrom.isEmpty() || from.isBefore(heldBackFrom.get())) {
      heldBackFrom = Optional.of(from);
    }
  }

  /** {@code file} was read (or skipped as bad) whole; the position to commit once it lands. */
  FileMark commit(CommittedFile file) {
    committed.put(file.path(), file);
    Instant reach = file.changedAt();
    if (reach.isAfter(listedAt)) {
      reach = listedAt;
    }
    if (heldBackFrom.isPresent() && reach.isAfter(heldBackFrom.get())) {
      reach = heldBackFrom.get();
    }
    if (reach.isAfter(watermark)) {
      watermark = reach;
    }
    path = file.path();
    return position();
  }

  private FileMark position() {
    Instant oldestKept = watermark.minus(WINDOW);
    committed
        .values()
        .removeIf(
            entry -> !listed.contains(entry.path()) || entry.changedAt().isBefore(oldestKept));
    return new FileMark(watermark, path, committed.values().stream().toList());
  }
}
