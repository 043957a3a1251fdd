package dfe.fetcher.file.dump;

import dfe.fetcher.core.row.FileMark.CommittedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;

/**
 * A file a listing found, with what the file system said about it then.
 *
 * @param path the file, as walked
 * @param seen its identity, size and times when it was listed, under its normalized absolute path
 */
record ListedFile(Path path, CommittedFile seen) {

  /** The file's name in marks, logs and errors. */
  String name() {
    return seen.path();
  }

  /**
   * What the file system says about {@code file} now, following links. The change time is the
   * inode's ({@code unix:ctime}); where the {@code unix} view is missing it is the modification
   * time, and a file system without file keys gives an empty identity.
   */
  static ListedFile stat(Path file) throws IOException {
    String name = file.toAbsolutePath().normalize().toString();
    BasicFileAttributes basic = Files.readAttributes(file, BasicFileAttributes.class);
    Instant modified = basic.lastModifiedTime().toInstant();
    Instant changed = modified;
    try {
      Map<String, Object> unix = Files.readAttributes(file, "unix:ctime");
      changed = ((FileTime) unix.get("ctime")).toInstant();
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // No unix view on this file system: the modification time is all there is.
    }
    Object key = basic.fileKey();
    return new ListedFile(
        file,
        new CommittedFile(
            name, key == null ? "" : key.toString(), basic.size(), modified, changed));
  }

  /** How the file differs from {@code now}, for the operator; empty when it does not. */
  String differenceFrom(ListedFile now) {
    CommittedFile then = seen;
    CommittedFile later = now.seen;
    if (!then.identity().equals(later.identity())) {
      return "replaced by another file";
    }
    if (then.size() != later.size()) {
      return "size " + then.size() + " -> " + later.size();
    }
    if (!then.modifiedAt().equals(later.modifiedAt())) {
      return "modified " + then.modifiedAt() + " -> " + later.modifiedAt();
    }
    if (!then.changedAt().equals(later.changedAt())) {
      return "changed " + then.changedAt() + " -> " + later.changedAt();
    }
    return "";
  }
}
