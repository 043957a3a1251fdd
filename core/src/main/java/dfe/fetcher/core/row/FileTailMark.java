package dfe.fetcher.core.row;

import java.util.List;
import java.util.Objects;

/**
 * A file tail unit's position: for each file it follows, the file's fingerprint and the byte offset
 * just past the last line the driver acknowledged. A restart reads each file on from its offset; a
 * file whose fingerprint is not here is read from its start.
 *
 * <p>The fingerprint is the file source's own text (its strategy and the bytes or identity it
 * covers); the checkpoint only carries it. Entries are in the order the source keeps them and name
 * each fingerprint once.
 *
 * @param files one entry a followed file
 */
public record FileTailMark(List<TailedFile> files) implements Mark {

  public FileTailMark {
    files = List.copyOf(files);
  }

  @Override
  public Kind kind() {
    return Kind.FILE_TAIL;
  }

  /**
   * One followed file.
   *
   * @param fingerprint what tells this file from another, whatever its name, as the source wrote it
   * @param path where the file was last seen, for logs and for finding it again after a rotation
   * @param offset the byte just past the last acknowledged line (in the decompressed stream for a
   *     gzip file)
   */
  public record TailedFile(String fingerprint, String path, long offset) {

    public TailedFile {
      Objects.requireNonNull(fingerprint, "fingerprint");
      Objects.requireNonNull(path, "path");
      if (fingerprint.isEmpty()) {
        throw new IllegalArgumentException("a tailed file needs a fingerprint");
      }
      if (offset < 0) {
        throw new IllegalArgumentException("a tailed file's offset must be >= 0, was " + offset);
      }
    }
  }
}
