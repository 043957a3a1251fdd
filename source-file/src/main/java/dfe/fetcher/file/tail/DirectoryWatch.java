package dfe.fetcher.file.tail;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch of directories for the whole process (the JDK's {@link WatchService}: inotify on
 * Linux), shared by every tail unit so that a thousand units cost one thread. A listener names the
 * directories it cares about and is told the path of each file created, written or removed in them;
 * it decides whether that path is one of its files. Nothing depends on being told: the units still
 * read on their interval, so a directory that cannot be watched (the watch limit reached, a
 * directory not made yet) only costs the early read.
 */
final class DirectoryWatch {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.file.tail");

  private static DirectoryWatch shared;

  private final WatchService service;
  private final Map<WatchKey, Path> directories = new ConcurrentHashMap<>();
  private final Map<Path, Set<Consumer<Path>>> listeners = new ConcurrentHashMap<>();

  private DirectoryWatch(WatchService service) {
    this.service = service;
    Thread thread = new Thread(this::dispatch, "dfe-file-watch");
    thread.setDaemon(true);
    thread.start();
  }

  /** The process's watch, started on first use; empty when the file system offers none. */
  static synchronized Optional<DirectoryWatch> shared() {
    if (shared == null) {
      try {
        shared = new DirectoryWatch(FileSystems.getDefault().newWatchService());
      } catch (IOException | UnsupportedOperationException e) {
        LOG.warn(
            "event=file_watch_unavailable note=\"tails read on their interval only\" error=\"{}\"",
            e.getMessage());
        return Optional.empty();
      }
    }
    return Optional.of(shared);
  }

  /**
   * Tells {@code listener} of changes in {@code directory} from now on. False when the directory
   * cannot be watched now (it does not exist, or the system's watch limit is reached).
   */
  boolean listen(Path directory, Consumer<Path> listener) {
    Set<Consumer<Path>> set = listeners.get(directory);
    if (set == null) {
      try {
        WatchKey key =
            directory.register(
                service,
                StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
        directories.put(key, directory);
      } catch (IOException | ClosedWatchServiceException | UnsupportedOperationException e) {
        return false;
      }
      set = listeners.computeIfAbsent(directory, d -> new CopyOnWriteArraySet<>());
    }
    set.add(listener);
    return true;
  }

  /** Stops telling {@code listener} anything. */
  void forget(Consumer<Path> listener) {
    listeners.values().forEach(set -> set.remove(listener));
  }

  private void dispatch() {
    while (true) {
      WatchKey key;
      try {
        key = service.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      Path directory = directories.get(key);
      for (WatchEvent<?> event : key.pollEvents()) {
        Set<Consumer<Path>> told = directory == null ? null : listeners.get(directory);
        if (told == null || told.isEmpty()) {
          continue;
        }
        // An overflow (events lost) names no file: every listener of the directory is told.
        Path file = event.context() instanceof Path name ? directory.resolve(name) : directory;
        for (Consumer<Path> listener : told) {
          try {
            listener.accept(file);
          } catch (RuntimeException e) {
            LOG.warn("event=file_watch_listener_failed error=\"{}\"", e.toString());
          }
        }
      }
      if (!key.reset()) {
        // The directory is gone; a later listen registers it again if it comes back.
        directories.remove(key);
        if (directory != null) {
          listeners.remove(directory);
        }
      }
    }
  }
}
