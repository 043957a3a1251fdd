package dfe.fetcher.runtime.transport;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: one {@code <directory>/<topic>.ndjson} per topic, one message value per
 * line, appended. A batch is acknowledged once every line is written and the files it touched are
 * fsynced. Keys and headers are not kept: the value alone is the line, as a consumer of the topic
 * would read it.
 *
 * <p>Each topic's file has a lock of its own, so units writing different topics never wait for each
 * other's writes or fsyncs. A batch takes the locks of the files it touches in topic order (two
 * batches cannot deadlock), appends each file's lines with one write of a buffer built beforehand,
 * fsyncs, and only then lets the next batch at those files: batches never interleave in a file, and
 * an fsync failure cannot be hidden by a later batch's fsync succeeding. If a write or an fsync
 * fails, every file the batch touched is cut back to its length before the batch, so a batch lands
 * whole or not at all; a file that could not be cut back is reopened by the next send, which drops
 * the torn last line.
 *
 * <p>Files are written through streams, not a {@code FileChannel}: an interrupt closes a channel,
 * failing every thread that shares it, and can stop a batch half written. An interrupted sender
 * finishes a batch it has started (a batch is short), keeps its interrupt flag, and a sender
 * interrupted while waiting for a file's lock sends nothing.
 */
public final class FileTransport implements Transport {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.output");

  /** How long a batch waits for another batch to finish with a file before it fails. */
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);

  private static final byte NEWLINE = '\n';

  private final Path directory;
  private final Map<String, TopicFile> files = new ConcurrentHashMap<>();

  public FileTransport(Path directory) {
    this.directory = directory;
  }

  /** The file a topic lands in. */
  public Path fileOf(String topic) {
    return directory.resolve(topic + ".ndjson");
  }

  @Override
  public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    SortedMap<String, ByteArrayOutputStream> linesByTopic = new TreeMap<>();
    for (OutboundRecord record : batch) {
      ByteArrayOutputStream lines =
          linesByTopic.computeIfAbsent(record.topic(), topic -> new ByteArrayOutputStream());
      lines.writeBytes(record.value());
      lines.write(NEWLINE);
    }
    List<TopicFile> locked = new ArrayList<>();
    List<Long> lengthsBefore = new ArrayList<>();
    String topic = null;
    try {
      for (String each : linesByTopic.keySet()) {
        topic = each;
        TopicFile file = files.computeIfAbsent(topic, name -> new TopicFile(fileOf(name)));
        file.lock(topic);
        locked.add(file);
      }
      int index = 0;
      for (Map.Entry<String, ByteArrayOutputStream> lines : linesByTopic.entrySet()) {
        topic = lines.getKey();
        TopicFile file = locked.get(index++);
        FileOutputStream out = file.open();
        lengthsBefore.add(file.length);
        lines.getValue().writeTo(out);
        file.length += lines.getValue().size();
      }
      index = 0;
      for (String each : linesByTopic.keySet()) {
        topic = each;
        locked.get(index++).out.getFD().sync();
      }
      return CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED);
    } catch (IOException e) {
      for (int i = 0; i < lengthsBefore.size(); i++) {
        locked.get(i).cutBack(lengthsBefore.get(i));
      }
      return CompletableFuture.failedFuture(
          new TransportException(
              "writing topic " + topic + " to " + fileOf(topic) + " failed: " + describe(e), e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(
          new TransportException(
              "interrupted while waiting to write topic " + topic + " to " + fileOf(topic), e));
    } finally {
      locked.forEach(file -> file.lock.unlock());
    }
  }

  @Override
  public boolean isReady() {
    if (Files.exists(directory)) {
      return Files.isDirectory(directory) && Files.isWritable(directory);
    }
    return canCreate(directory);
  }

  @Override
  public void close() {
    for (Map.Entry<String, TopicFile> entry : files.entrySet()) {
      TopicFile file = entry.getValue();
      try {
        file.lock(entry.getKey());
      } catch (IOException | InterruptedException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.warn("event=file_not_closed file={} reason=\"{}\"", file.path, e.getMessage());
        continue;
      }
      try {
        file.discard();
      } finally {
        file.lock.unlock();
      }
    }
  }

  /** One topic's file: its lock, and what is known of it while the lock is held. */
  private static final class TopicFile {

    final Path path;
    final ReentrantLock lock = new ReentrantLock();

    /** Open for appending, or null until the next batch opens it. Guarded by {@link #lock}. */
    FileOutputStream out;

    /** The file's length as this transport has written it. Guarded by {@link #lock}. */
    long length;

    TopicFile(Path path) {
      this.path = path;
    }

    void lock(String topic) throws IOException, InterruptedException {
      if (!lock.tryLock(LOCK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IOException(
            "another batch of topic "
                + topic
                + " has held the file for "
                + LOCK_TIMEOUT.toSeconds()
                + " s");
      }
    }

    /** Opens the file on first use, dropping a torn last line a crash left behind. */
    FileOutputStream open() throws IOException {
      if (out == null) {
        Files.createDirectories(path.getParent());
        if (Files.exists(path)) {
          try (RandomAccessFile repair = new RandomAccessFile(path.toFile(), "rw")) {
            dropTornLastLine(repair, path);
          }
        }
        out = new FileOutputStream(path.toFile(), true);
        length = Files.size(path);
      }
      return out;
    }

    /**
     * Removes what a failed batch wrote, so no half line stays behind for a consumer to trip on,
     * and closes the file: the next batch reopens it, and drops a torn line should the cut fail.
     */
    void cutBack(long lengthBefore) {
      try (RandomAccessFile cut = new RandomAccessFile(path.toFile(), "rw")) {
        cut.setLength(lengthBefore);
      } catch (IOException e) {
        LOG.warn(
            "event=failed_batch_not_cut_back file={} reason=\"{}\" note=\"cut on the next open\"",
            path,
            e.getMessage());
      }
      discard();
    }

    void discard() {
      if (out != null) {
        try {
          out.close();
        } catch (IOException ignored) {
          // Everything acknowledged was fsynced already; nothing is lost by a failed close.
        }
        out = null;
      }
    }
  }

  /**
   * A crash in the middle of a write leaves a last line without its newline; the next append would
   * be glued to it and lost with it. That partial line was never acknowledged, so it is cut off
   * before anything is appended.
   */
  private static void dropTornLastLine(RandomAccessFile file, Path path) throws IOException {
    long size = file.length();
    if (size == 0 || lastByte(file, size - 1) == NEWLINE) {
      return;
    }
    byte[] chunk = new byte[64 * 1024];
    long end = size;
    while (end > 0) {
      long start = Math.max(0, end - chunk.length);
      int length = (int) (end - start);
      file.seek(start);
      file.readFully(chunk, 0, length);
      for (int i = length - 1; i >= 0; i--) {
        if (chunk[i] == NEWLINE) {
          truncateTo(file, path, start + i + 1, size);
          return;
        }
      }
      end = start;
    }
    truncateTo(file, path, 0, size);
  }

  private static void truncateTo(RandomAccessFile file, Path path, long length, long size)
      throws IOException {
    file.setLength(length);
    file.getFD().sync();
    LOG.warn(
        "event=torn_line_dropped file={} bytes={} note=\"an unacknowledged partial line\"",
        path,
        size - length);
  }

  private static byte lastByte(RandomAccessFile file, long position) throws IOException {
    file.seek(position);
    return file.readByte();
  }

  private static boolean canCreate(Path directory) {
    Path parent = directory.toAbsolutePath().getParent();
    while (parent != null && !Files.exists(parent)) {
      parent = parent.getParent();
    }
    return parent != null && Files.isDirectory(parent) && Files.isWritable(parent);
  }

  /**
   * What went wrong, with the path it went wrong at: the JDK's file exceptions carry only the path
   * as their message, and "failed: /srv/landing" says nothing an operator can act on.
   */
  static String describe(IOException failure) {
    String path = String.valueOf(failure.getMessage());
    if (failure instanceof FileAlreadyExistsException) {
      return path + ": exists and is not a directory";
    }
    if (failure instanceof NotDirectoryException) {
      return path + ": not a directory";
    }
    if (failure instanceof NoSuchFileException) {
      return path + ": no such file or directory";
    }
    if (failure instanceof AccessDeniedException) {
      return path + ": permission denied";
    }
    if (failure instanceof FileSystemException) {
      return path; // "PATH: reason" already
    }
    return failure.getClass().getSimpleName() + ": " + path;
  }
}
