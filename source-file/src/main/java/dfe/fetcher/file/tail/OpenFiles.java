package dfe.fetcher.file.tail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The files a tail unit holds open between reads, keyed by file system identity, at most {@code
 * capacity}: opening one more closes the one read least recently. A file closed this way is opened
 * again by its path when it is read next; a rotated file whose path names another file by then is
 * looked for beside it (see {@code FileTailSource}). Not thread-safe: one read at a time.
 */
final class OpenFiles implements AutoCloseable {

  private final int capacity;
  private final LinkedHashMap<String, OpenFile> files = new LinkedHashMap<>(16, 0.75f, true);

  OpenFiles(int capacity) {
    this.capacity = capacity;
  }

  /** The open file of {@code identity}, marked as just used. */
  Optional<OpenFile> get(String identity) {
    return Optional.ofNullable(files.get(identity));
  }

  /** The open file of {@code identity}, opened at {@code path} if it is not open yet. */
  OpenFile open(Path path, String identity) throws IOException {
    OpenFile open = files.get(identity);
    if (open != null) {
      return open;
    }
    OpenFile opened = OpenFile.open(path, identity);
    files.put(identity, opened);
    while (files.size() > capacity) {
      Map.Entry<String, OpenFile> eldest = files.entrySet().iterator().next();
      files.remove(eldest.getKey());
      closeQuietly(eldest.getValue());
    }
    return opened;
  }

  /** Closes and forgets the file of {@code identity}, if open. */
  void close(String identity) {
    OpenFile open = files.remove(identity);
    if (open != null) {
      closeQuietly(open);
    }
  }

  int size() {
    return files.size();
  }

  @Override
  public void close() {
    files.values().forEach(OpenFiles::closeQuietly);
    files.clear();
  }

  private static void closeQuietly(OpenFile file) {
    try {
      file.close();
    } catch (IOException ignored) {
      // a read-only handle has nothing to flush
    }
  }
}
