package dfe.fetcher.runtime.transport;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
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
 * batches cannot deadlock) and appends each file's lines with one write of a buffer built
 * beforehand: batches never interleave in a file. If a write fails, every file the batch touched is
 * cut back to its length before the batch, so a batch lands whole or not at all; a file that could
 * not be cut back is reopened by the next send, which drops the torn last line.
 *
 * <p>Fsyncs are grouped. A batch of one topic is acknowledged from a sync thread (one for each file
 * being synced) once an fsync that began after its write has succeeded: the sender goes on writing
 * its next batch while the disk syncs, and one fsync covers every batch written before it began (a
 * sender that waited for its own fsync would spend most of its time waiting on a busy disk). A
 * batch of several topics is fsynced by its sender before it returns, as one whole. A failed fsync
 * cuts the file back to what the last good fsync covered and fails every batch written since: none
 * of them is acknowledged, so none is ever half acknowledged, and a later fsync succeeding cannot
 * hide the failure. The units those batches belonged to are then refused further batches until they
 * abandon their tick ({@link #abandoned}): a unit's batches land in the order it sent them, never a
 * later one without an earlier one that failed.
 *
 * <p>Files are written through streams, not a {@code FileChannel}: an interrupt closes a channel,
 * failing every thread that shares it, and can stop a batch half written. An interrupted sender
 * finishes a batch it has started (a batch is short), keeps its interrupt flag, and a sender
 * interrupted while waiting for a file's lock sends nothing.
 *
 * <p>With a {@link FileRotation} the live file is rotated between batches, under the file's lock,
 * before the batch that would take it past the size limit (or the first batch once it is too old):
 * it is fsynced, closed and renamed to its {@link RotatedFile} name, a new empty live file is
 * created, and the directory is fsynced so that both names are durable before the batch that
 * follows is written and acknowledged. Every line of a rotated file was acknowledged before it was
 * renamed; no record is ever split across two files. Retention then deletes the topic's oldest
 * rotated files beyond the count and age limits, never the live file. A rotation that fails fails
 * the batch (nothing of it is written); the next batch tries again.
 */
public final class FileTransport implements Transport {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.output");

  /** How long a batch waits for another batch to finish with a file before it fails. */
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);

  private static final byte NEWLINE = '\n';

  /**
   * How much more than after a failure for want of space must be free for the output to be ready.
   */
  private static final long ROOM_AFTER_FULL_BYTES = 1 << 20;

  private final Path directory;
  private final FileRotation rotation;
  private final Clock clock;
  private final FileOutputEvents events;
  private final FileSync fileSync;
  private final Map<String, TopicFile> files = new ConcurrentHashMap<>();

  /**
   * Runs the fsyncs batches wait for, one at a time a file: a thread for each file being synced,
   * made as needed and gone after a few idle seconds, so a file whose disk hangs holds up only its
   * own batches.
   */
  private final ThreadPoolExecutor syncs =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          10,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          task -> {
            Thread thread = new Thread(task, "dfe-file-sync");
            thread.setDaemon(true);
            return thread;
          });

  /** Units a failed fsync failed batches of: refused until their tick is abandoned. */
  private final Set<String> refusedStores = ConcurrentHashMap.newKeySet();

  /**
   * What must be usable on the landing file system before the output is ready again after a batch
   * failed for want of space (the usable bytes then plus the batch, at least a MiB more), or -1
   * while no batch has since the last that landed.
   */
  private volatile long usableToBeReady = -1;

  /** One file per topic that only grows: no rotation, no retention. */
  public FileTransport(Path directory) {
    this(directory, FileRotation.NEVER, Clock.systemUTC(), FileOutputEvents.NONE);
  }

  /**
   * @param clock dates rotated files and decides their age, and the live file's
   * @param events told of every rotation and deletion
   */
  public FileTransport(
      Path directory, FileRotation rotation, Clock clock, FileOutputEvents events) {
    this(directory, rotation, clock, events, out -> out.getFD().sync());
  }

  /** With {@code fileSync} in place of the fsync of a landing file, for tests of its failures. */
  FileTransport(
      Path directory,
      FileRotation rotation,
      Clock clock,
      FileOutputEvents events,
      FileSync fileSync) {
    this.directory = directory;
    this.rotation = rotation;
    this.clock = clock;
    this.events = events;
    this.fileSync = fileSync;
  }

  /** How a landing file's written lines are made durable: {@code fsync}. */
  @FunctionalInterface
  interface FileSync {
    void sync(FileOutputStream out) throws IOException;
  }

  /** The file a topic lands in. */
  public Path fileOf(String topic) {
    return directory.resolve(topic + ".ndjson");
  }

  @Override
  public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    return send(null, batch);
  }

  @Override
  public CompletableFuture<SendResult> send(UnitBatch batch) {
    if (refusedStores.contains(batch.store())) {
      return CompletableFuture.failedFuture(
          new TransportException(
              "unit "
                  + batch.store()
                  + ": an earlier batch failed to become durable; nothing more of this tick is"
                  + " written",
              null));
    }
    if (batch.records().isEmpty()) {
      return CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED);
    }
    return send(batch.store(), batch.records());
  }

  @Override
  public void abandoned(String store) {
    refusedStores.remove(store);
  }

  private CompletableFuture<SendResult> send(String store, List<OutboundRecord> batch) {
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
        TopicFile file = files.computeIfAbsent(topic, name -> new TopicFile(name, fileOf(name)));
        file.lock(topic);
        locked.add(file);
      }
      Instant now = clock.instant();
      int index = 0;
      for (Map.Entry<String, ByteArrayOutputStream> lines : linesByTopic.entrySet()) {
        topic = lines.getKey();
        TopicFile file = locked.get(index++);
        file.open(now);
        file.rotateIfDue(lines.getValue().size(), now);
        lengthsBefore.add(file.length);
        if (file.length == 0) {
          file.firstLineAt = now;
        }
        lines.getValue().writeTo(file.out);
        file.length += lines.getValue().size();
      }
      if (usableToBeReady >= 0) {
        usableToBeReady = -1;
      }
      if (locked.size() == 1) {
        return locked.get(0).awaitSync(store);
      }
      index = 0;
      for (String each : linesByTopic.keySet()) {
        topic = each;
        TopicFile file = locked.get(index);
        try {
          file.syncNow();
        } catch (IOException e) {
          // The files synced before it keep this batch's lines: cut back below as a failed write
          // would be; this one the failed sync cut back to what its last good fsync covered.
          lengthsBefore.set(index, Math.min(lengthsBefore.get(index), file.length));
          throw e;
        }
        index++;
      }
      return CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED);
    } catch (IOException e) {
      for (int i = 0; i < lengthsBefore.size(); i++) {
        locked.get(i).cutBack(lengthsBefore.get(i));
      }
      if (isOutOfSpace(e)) {
        long batchBytes =
            linesByTopic.values().stream().mapToLong(ByteArrayOutputStream::size).sum();
        usableToBeReady = Math.max(0, usableSpace()) + Math.max(batchBytes, ROOM_AFTER_FULL_BYTES);
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

  /**
   * Ready when the landing directory can be written (or created) and its file system has room: not
   * while no byte is left, nor after a batch failed for want of space until that batch's size (a
   * MiB at least) more is free than then, or a batch lands.
   */
  @Override
  public boolean isReady() {
    if (Files.exists(directory)) {
      return Files.isDirectory(directory) && Files.isWritable(directory) && hasRoom();
    }
    return canCreate(directory);
  }

  private boolean hasRoom() {
    long usable = usableSpace();
    if (usable < 0) {
      return true; // the file system does not say; the writes will
    }
    long needed = usableToBeReady;
    return usable > 0 && (needed < 0 || usable >= needed);
  }

  /** The landing file system's usable bytes, or -1 when it cannot be asked. */
  private long usableSpace() {
    try {
      return Files.getFileStore(directory).getUsableSpace();
    } catch (IOException | SecurityException e) {
      return -1;
    }
  }

  /** ENOSPC, in the words Java passes on from the system ({@code strerror}). */
  private static boolean isOutOfSpace(IOException failure) {
    String reason =
        failure instanceof FileSystemException system ? system.getReason() : failure.getMessage();
    return reason != null && reason.contains("No space left on device");
  }

  @Override
  public void close() {
    // The fsyncs under way finish (an fsync cannot be interrupted); what still waits after them is
    // synced below, under each file's lock.
    syncs.shutdown();
    try {
      syncs.awaitTermination(LOCK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
        file.settleWaiting();
        file.discard();
      } finally {
        file.lock.unlock();
      }
    }
  }

  /**
   * Has {@code file} fsynced for what waits in it; false once the transport is closed, when the
   * caller syncs the file itself.
   */
  private boolean queueSync(TopicFile file) {
    try {
      syncs.execute(file::syncWaiting);
      return true;
    } catch (RejectedExecutionException closed) {
      return false;
    }
  }

  /** A batch's lines in a file, waiting for an fsync that covers them. */
  private record Waiting(long end, String store, CompletableFuture<SendResult> acknowledged) {}

  /** One topic's file: its lock, and what is known of it while the lock is held. */
  private final class TopicFile {

    final String topic;
    final Path path;
    final ReentrantLock lock = new ReentrantLock();

    /** Open for appending, or null until the next batch opens it. Guarded by {@link #lock}. */
    FileOutputStream out;

    /** The file's length as this transport has written it. Guarded by {@link #lock}. */
    long length;

    /** How much of the file the last good fsync (or the open) covered. Guarded by {@link #lock}. */
    long syncedLength;

    /** Changed whenever {@link #out} is: an fsync of an earlier stream settles nothing. */
    long generation;

    /** Batches written and not yet covered by an fsync, oldest first. Guarded by {@link #lock}. */
    final List<Waiting> waiting = new ArrayList<>();

    /**
     * Whether a sync thread has this file: it fsyncs until nothing waits, so a file has one fsync
     * at a time. Guarded by {@link #lock}.
     */
    boolean syncing;

    /**
     * When the live file got its first line, for {@code rotate_secs}; null while it is empty. A
     * file found non-empty at start counts from its topic's newest rotation, else from its last
     * modification. Guarded by {@link #lock}.
     */
    Instant firstLineAt;

    /** The newest rotated file, once the directory was looked at. Guarded by {@link #lock}. */
    Optional<RotatedFile> newestRotated;

    /**
     * Whether a file was created or renamed in the directory since its last successful fsync: the
     * next open syncs it before anything is written. Guarded by {@link #lock}.
     */
    boolean namesNotDurable;

    TopicFile(String topic, Path path) {
      this.topic = topic;
      this.path = path;
      events.topicOpened(topic);
    }

    /** The batch just written (the file's lock held) is acknowledged once an fsync covers it. */
    CompletableFuture<SendResult> awaitSync(String store) {
      CompletableFuture<SendResult> acknowledged = new CompletableFuture<>();
      waiting.add(new Waiting(length, store, acknowledged));
      if (!syncing) {
        syncing = queueSync(this);
        if (!syncing) {
          settleWaiting();
        }
      }
      return acknowledged;
    }

    /**
     * Fsyncs the file until nothing waits: outside the lock, so senders append meanwhile; whatever
     * an fsync began after is acknowledged, and a failure fails all that waits.
     */
    void syncWaiting() {
      while (true) {
        FileOutputStream stream;
        long covered;
        long streamGeneration;
        lock.lock();
        try {
          if (waiting.isEmpty() || out == null) {
            syncing = false;
            return;
          }
          stream = out;
          covered = length;
          streamGeneration = generation;
        } finally {
          lock.unlock();
        }
        IOException failure = null;
        try {
          fileSync.sync(stream);
        } catch (IOException e) {
          failure = e;
        }
        lock.lock();
        try {
          if (streamGeneration != generation) {
            continue; // rotated, cut back or closed meanwhile: that settled what waited then
          }
          if (failure != null) {
            syncFailed(failure);
          } else {
            synced(covered);
          }
        } finally {
          lock.unlock();
        }
      }
    }

    /** Fsyncs the file under its lock: everything written so far, what waits included. */
    void syncNow() throws IOException {
      try {
        fileSync.sync(out);
      } catch (IOException e) {
        syncFailed(e);
        throw e;
      }
      synced(length);
    }

    /** Before the stream is closed (the lock held): an fsync for what waits, or its failure. */
    void settleWaiting() {
      if (waiting.isEmpty() || out == null) {
        return;
      }
      try {
        syncNow();
      } catch (IOException e) {
        // syncFailed has failed what waited and cut the file back.
      }
    }

    private void synced(long covered) {
      syncedLength = Math.max(syncedLength, covered);
      while (!waiting.isEmpty() && waiting.get(0).end() <= covered) {
        waiting.remove(0).acknowledged().complete(SendResult.ALL_ACKNOWLEDGED);
      }
    }

    /**
     * An fsync failed: what it should have covered may be lost, so the file is cut back to what the
     * last good one covered, and every batch written since fails; their units get no further batch
     * until they abandon the tick.
     */
    private void syncFailed(IOException failure) {
      TransportException refused =
          new TransportException(
              "writing topic " + topic + " to " + path + " failed: " + describe(failure), failure);
      for (Waiting each : waiting) {
        if (each.store() != null) {
          refusedStores.add(each.store());
        }
        each.acknowledged().completeExceptionally(refused);
      }
      waiting.clear();
      long keep = syncedLength;
      cutBack(keep);
      length = keep;
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

    /**
     * Opens the file on first use, dropping a torn last line a crash left behind. The first open of
     * a topic also applies retention to the rotated files an earlier run left.
     */
    void open(Instant now) throws IOException {
      if (out != null) {
        return;
      }
      Files.createDirectories(path.getParent());
      if (newestRotated == null && (rotation.rotates() || rotation.limitsRetention())) {
        // Before the file is opened: should the listing fail, the next batch tries all again.
        List<RotatedFile> rotated = rotatedFiles();
        newestRotated =
            rotated.isEmpty() ? Optional.empty() : Optional.of(rotated.get(rotated.size() - 1));
        applyRetention(rotated, now);
      }
      boolean existed = Files.exists(path);
      if (existed) {
        try (RandomAccessFile repair = new RandomAccessFile(path.toFile(), "rw")) {
          dropTornLastLine(repair, path);
        }
      }
      FileOutputStream opened = new FileOutputStream(path.toFile(), true);
      if (!existed || namesNotDurable) {
        try {
          syncDirectory(path.getParent());
        } catch (IOException e) {
          namesNotDurable = true;
          closeQuietly(opened);
          throw e;
        }
        namesNotDurable = false;
      }
      out = opened;
      generation++;
      length = Files.size(path);
      syncedLength = length;
      firstLineAt = null;
      if (length > 0) {
        firstLineAt =
            newestRotated != null && newestRotated.isPresent()
                ? newestRotated.get().rotatedAt()
                : Files.getLastModifiedTime(path).toInstant();
      }
    }

    /**
     * Rotates the live file when the next {@code incoming} bytes would take it past {@code
     * rotate_bytes}, or its first line is {@code rotate_secs} old. An empty file is never rotated.
     */
    void rotateIfDue(long incoming, Instant now) throws IOException {
      if (length == 0) {
        return;
      }
      String reason;
      if (rotation.rotateBytes() > 0 && length + incoming > rotation.rotateBytes()) {
        reason = "size";
      } else if (!rotation.rotateAge().isZero()
          && !now.isBefore(firstLineAt.plus(rotation.rotateAge()))) {
        reason = "age";
      } else {
        return;
      }
      // This sync covers the batches still waiting for theirs, and makes a cut back after a failed
      // batch durable before the file is closed for good.
      syncNow();
      discard();
      RotatedFile rotated = RotatedFile.next(topic, now, newestRotated);
      Path target = path.resolveSibling(rotated.fileName());
      while (Files.exists(target)) { // put there by hand: never overwrite a file
        rotated = RotatedFile.next(topic, rotated.rotatedAt(), Optional.of(rotated));
        target = path.resolveSibling(rotated.fileName());
      }
      long bytes = length;
      Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
      newestRotated = Optional.of(rotated);
      namesNotDurable = true;
      open(now); // a new, empty live file; the directory is fsynced before anything is written
      events.rotated(topic);
      LOG.info(
          "event=output_file_rotated topic={} file={} bytes={} reason={}",
          topic,
          target,
          bytes,
          reason);
      if (rotation.limitsRetention()) {
        applyRetention(rotatedFiles(), now);
      }
    }

    /** The topic's rotated files in the directory, oldest first. */
    private List<RotatedFile> rotatedFiles() throws IOException {
      try (Stream<Path> listing = Files.list(path.getParent())) {
        return listing
            .map(each -> RotatedFile.parse(topic, each.getFileName().toString()))
            .flatMap(Optional::stream)
            .sorted()
            .toList();
      }
    }

    /** Deletes the oldest rotated files beyond {@code retain_files} and older than retain_secs. */
    private void applyRetention(List<RotatedFile> oldestFirst, Instant now) {
      int beyondCount =
          rotation.retainFiles() == 0
              ? 0
              : Math.max(0, oldestFirst.size() - rotation.retainFiles());
      for (int i = 0; i < oldestFirst.size(); i++) {
        RotatedFile each = oldestFirst.get(i);
        String reason;
        if (i < beyondCount) {
          reason = "retain_files";
        } else if (!rotation.retainAge().isZero()
            && !now.isBefore(each.rotatedAt().plus(rotation.retainAge()))) {
          reason = "retain_secs";
        } else {
          continue;
        }
        Path file = path.resolveSibling(each.fileName());
        try {
          if (Files.deleteIfExists(file)) {
            events.deleted(topic);
            LOG.info("event=output_file_deleted topic={} file={} reason={}", topic, file, reason);
          }
        } catch (IOException e) {
          LOG.warn(
              "event=output_file_not_deleted topic={} file={} reason=\"{}\"",
              topic,
              file,
              describe(e));
        }
      }
    }

    /**
     * Removes what a failed batch wrote, so no half line stays behind for a consumer to trip on,
     * and closes the file: the next batch reopens it, and drops a torn line should the cut fail.
     */
    void cutBack(long lengthBefore) {
      if (!waiting.isEmpty() && out != null) {
        // Earlier batches wait for an fsync of lines before the cut: it is done now, as the
        // stream is about to be closed (a failure fails them too, and cuts further back).
        try {
          fileSync.sync(out);
          synced(Math.min(length, lengthBefore));
        } catch (IOException e) {
          syncFailed(e);
          return;
        }
      }
      try (RandomAccessFile cut = new RandomAccessFile(path.toFile(), "rw")) {
        if (cut.length() > lengthBefore) {
          cut.setLength(lengthBefore);
        }
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
        closeQuietly(out);
        out = null;
        generation++;
      }
      for (Waiting each : waiting) {
        each.acknowledged()
            .completeExceptionally(
                new TransportException(
                    "topic " + topic + ": the output closed " + path + " before an fsync", null));
      }
      waiting.clear();
    }
  }

  private static void closeQuietly(FileOutputStream out) {
    try {
      out.close();
    } catch (IOException ignored) {
      // Everything acknowledged was fsynced already; nothing is lost by a failed close.
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

  /**
   * Makes the names in {@code directory} durable: a new live file's, a rotated file's. The channel
   * is the transport's own for this call only; the interrupt flag is held off around it so that an
   * interrupted sender still finishes the batch it started, as with the streams.
   */
  private static void syncDirectory(Path directory) throws IOException {
    boolean interrupted = Thread.interrupted();
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
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
