package dfe.fetcher.runtime.cursor;

import dfe.fetcher.core.checkpoint.CursorStore;
import dfe.fetcher.core.checkpoint.LoadedCursor;
import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.Mark;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON file per cursor key under a directory: {@code <key>.json}, written to a temporary file,
 * fsynced, renamed over the old one and the directory fsynced, so a crash leaves either the old
 * cursor or the new one, whole. The file's form is {@link MarkCodec}'s, versioned. A cursor that
 * cannot be read or understood is logged once (again only when the problem changes), naming the
 * file, and found {@link LoadedCursor.Unreadable}: the unit reads as after a lost checkpoint, which
 * re-lands data rather than skipping it.
 *
 * <p>Commits of different keys never wait for each other: each key has its own lock, so one unit's
 * fsync does not queue the others.
 */
public final class FileCursorStore implements CursorStore {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.checkpoint");
  private final Path directory;
  private final Clock clock;
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final Map<String, String> reported = new ConcurrentHashMap<>();

  public FileCursorStore(Path directory, Clock clock) {
    this.directory = directory;
    this.clock = clock;
  }

  /** The file that holds {@code key}'s cursor. */
  public Path fileOf(String key) {
    return directory.resolve(key + ".json");
  }

  @Override
  public LoadedCursor find(String key) {
    Path file = fileOf(key);
    byte[] document;
    try {
      document = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      reported.remove(key);
      return new LoadedCursor.None();
    } catch (IOException e) {
      return unreadable(key, file, "cannot read: " + e.getClass().getSimpleName());
    }
    try {
      Mark mark = MarkCodec.decode(document);
      reported.remove(key);
      return new LoadedCursor.Held(mark);
    } catch (MarkCodec.UnreadableMarkException e) {
      return unreadable(key, file, e.getMessage());
    }
  }

  /**
   * What {@code key}'s checkpoint file holds, for an operator: unlike {@link #load} it logs nothing
   * and tells a missing file from one that cannot be read.
   */
  public StoredCheckpoint inspect(String key) {
    Path file = fileOf(key);
    byte[] document;
    Instant writtenAt;
    try {
      writtenAt = Files.getLastModifiedTime(file).toInstant();
      document = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new StoredCheckpoint.None();
    } catch (IOException e) {
      return new StoredCheckpoint.Unreadable("cannot read: " + e.getClass().getSimpleName());
    }
    try {
      return new StoredCheckpoint.Held(MarkCodec.decode(document), writtenAt);
    } catch (MarkCodec.UnreadableMarkException e) {
      return new StoredCheckpoint.Unreadable(e.getMessage());
    }
  }

  /**
   * Removes {@code key}'s checkpoint, so the unit's next tick starts from the beginning, and
   * returns what it held ({@link StoredCheckpoint.None} when there was no file). A tick of the unit
   * running meanwhile may commit again after it; stop the unit's service first to be sure.
   *
   * @throws CheckpointException when the file exists and cannot be removed (the message names it)
   */
  public StoredCheckpoint remove(String key) throws CheckpointException {
    synchronized (locks.computeIfAbsent(key, k -> new Object())) {
      StoredCheckpoint held = inspect(key);
      Path file = fileOf(key);
      try {
        if (!Files.deleteIfExists(file)) {
          return new StoredCheckpoint.None();
        }
      } catch (IOException e) {
        throw new CheckpointException("removing cursor " + file + " failed: " + e.getMessage(), e);
      }
      syncDirectory();
      reported.remove(key);
      return held;
    }
  }

  private LoadedCursor unreadable(String key, Path file, String problem) {
    if (!problem.equals(reported.put(key, problem))) {
      // What the unit does about it is its source's to say (RowSource.readAfterLostCheckpoint).
      LOG.warn(
          "event=cursor_unreadable key={} file={} error=\"{}\" action=read_as_lost",
          key,
          file,
          problem);
    }
    return new LoadedCursor.Unreadable(file.toString(), problem);
  }

  @Override
  public void commit(String key, Mark mark) throws CheckpointException {
    synchronized (locks.computeIfAbsent(key, k -> new Object())) {
      write(key, mark);
      // The cursor is whole again: should it break later, even the same way, that is news.
      reported.remove(key);
    }
  }

  private void write(String key, Mark mark) throws CheckpointException {
    Path file = fileOf(key);
    Path temporary = directory.resolve(key + ".json.tmp");
    byte[] document = MarkCodec.encode(mark, Instant.now(clock));
    try {
      Files.createDirectories(directory);
      try (FileChannel channel =
          FileChannel.open(
              temporary,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        channel.write(ByteBuffer.wrap(document));
        channel.force(true);
      }
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      syncDirectory();
    } catch (IOException e) {
      throw new CheckpointException("writing cursor " + file + " failed: " + e.getMessage(), e);
    }
  }

  private void syncDirectory() {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory for sync; the rename itself is still atomic.
      LOG.debug(
          "event=cursor_directory_sync_skipped directory={} error={}", directory, e.toString());
    }
  }
}
