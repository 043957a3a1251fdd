package dfe.fetcher.file.tail;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file tail unit: on each read, every line written to its files since the checkpoint, as tail
 * rows, each file's offset in the unit's {@link FileTailMark}.
 *
 * <p><b>Contract.</b> {@code read} starts each file at the offset its checkpoint entry holds (the
 * checkpoint is what the driver committed: a line not acknowledged is read again), reads whole
 * lines up to the size each file had when the read began, and, while a file has grown since and the
 * read handed over lines, does so again from where it stands, for up to {@link #FOLLOW_FOR} in all
 * (so a busy file is followed as it is written, and a tick still ends), then returns. Every row's
 * offset is in the marks that follow it; a mark rides on every {@value #MARK_EVERY_ROWS}th row
 * (every 4 x files rows when more files are followed) and on an {@link RowSink#advance} at the end
 * of the read, so the driver commits a file's offset only once every line before it is
 * acknowledged. A line without its newline is not read (it is read whole once the newline is
 * written), except at the end of a file known complete (a gzip file, a rotated file quiet for
 * {@code rotate_wait_secs}).
 *
 * <p><b>Which file is which.</b> Files are matched to entries by fingerprint ({@link Fingerprint},
 * {@link FileAssignment}). A file that continues an entry but is now shorter than its offset was
 * truncated (copytruncate): it is read from its start. An entry no listed file continues is a file
 * rotated away: the handle this unit holds open still reads it (renamed or deleted) and, after a
 * restart, it is looked for beside its old path (any file in that directory whose name starts with
 * the old name, {@code app.log.1}, {@code app.log-2026.gz}); it is read to its end and followed
 * until it has been quiet for {@code rotate_wait_secs}, before the files its path names now, so a
 * renamed file's last lines land before the new file's first. An entry found nowhere is dropped and
 * logged.
 *
 * <p><b>State between reads</b> is a cache, never a position: the open handles ({@link OpenFiles},
 * bounded), the last listing (walked again every {@code glob_interval_secs}), each file's first
 * bytes, the identity each fingerprint was last read under, and which problems were logged already.
 * Close the source to release the handles.
 */
public final class FileTailSource implements RowSource, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.file.tail");

  /** A mark rides on every this many rows (building one costs a copy of every file's entry). */
  static final int MARK_EVERY_ROWS = 1000;

  /** Lines one file may hand over before the next file's turn: the share of a busy file. */
  static final int LINES_PER_TURN = 500;

  /**
   * How long one read goes on following files that grow while it reads them, before it returns and
   * the unit waits for its next tick.
   */
  static final Duration FOLLOW_FOR = Duration.ofSeconds(10);

  private final FileTailSpec spec;
  private final Clock clock;
  private final SourceMetrics metrics;
  private final String store;
  private final TailListing listing;
  private final TailRecords records;
  private final Optional<Pattern> multiline;
  private final OpenFiles open;

  // Written by the reads, read by the watch's thread too.
  private volatile Set<Path> listed = Set.of();

  /** What the scheduler asked to be run when a followed or matching file changes; null: none. */
  private volatile Runnable wake;

  private final Consumer<Path> changes = this::changed;
  private Instant listedAt;
  private final Map<String, String> lastIdentity = new HashMap<>();
  private final Map<String, String> lastFingerprintAt = new HashMap<>();
  private final Map<String, Prefix> prefixes = new HashMap<>();
  private final Map<String, Instant> rotatedAwaySince = new HashMap<>();
  private final Map<String, Long> lastSize = new HashMap<>();

  /** The content length of each complete (gzip) file read to its end, so it is not read again. */
  private final Map<String, Long> completeAt = new HashMap<>();

  private final Set<String> reported = new HashSet<>();

  /** Whether the lost checkpoint being read past was logged; a read with one forgets it. */
  private boolean lostReported;

  private final Set<String> lagSeries = new HashSet<>();

  /** By identity: when the unread part of each followed file was written. */
  private final Map<String, UnreadAge> unreadAges = new HashMap<>();

  /** What this process read of a file's start, valid while its size and time stay the same. */
  private record Prefix(long size, Instant modified, byte[] bytes, int length, boolean gzip) {}

  /**
   * @param store {@code <connection>.<unit>}, the {@code source} label of the unit's metrics
   */
  public FileTailSource(FileTailSpec spec, Clock clock, SourceMetrics metrics, String store) {
    this.spec = spec;
    this.clock = clock;
    this.metrics = metrics;
    this.store = store;
    this.listing = new TailListing(spec);
    this.records = new TailRecords(spec.decoder());
    this.multiline = spec.multiline().map(m -> Pattern.compile(m.pattern()));
    this.open = new OpenFiles(spec.maxOpenFiles());
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (checkpoint.isPresent()) {
      lostReported = false;
    }
    read(checkpoint, spec.readFrom(), sink, cancellation);
  }

  /**
   * Reads every file from its start, whatever {@code read_from} says: {@code read_from} is where a
   * unit that never ran starts, and this one had read up to a place it cannot know any more, so its
   * lines land again rather than what the files gained since be passed over.
   */
  @Override
  public void readAfterLostCheckpoint(RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    if (!lostReported) {
      lostReported = true;
      LOG.warn(
          "event=tail_checkpoint_lost unit={} read_from={} action=read_files_from_start"
              + " reason=\"its checkpoint could not be read; read_from applies to a first start"
              + " only, so every line of its files lands again rather than any being skipped\"",
          store,
          spec.readFrom().configName());
    }
    read(Optional.empty(), ReadFrom.BEGINNING, sink, cancellation);
  }

  private void read(
      Optional<Mark> checkpoint, ReadFrom readFrom, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Instant until = clock.instant().plus(FOLLOW_FOR);
    Optional<Mark> from = checkpoint;
    while (true) {
      Round round = readRound(from, readFrom, sink, cancellation);
      if (!round.grown() || !clock.instant().isBefore(until)) {
        return;
      }
      from = Optional.of(round.end());
    }
  }

  /** Where one pass over the files ended, and whether a file it read from has grown past it. */
  private record Round(FileTailMark end, boolean grown) {}

  private Round readRound(
      Optional<Mark> checkpoint, ReadFrom readFrom, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Instant now = clock.instant();
    List<FileTailMark.TailedFile> entries =
        checkpoint.map(mark -> ((FileTailMark) mark).files()).orElse(List.of());
    boolean fromEnd = checkpoint.isEmpty() && readFrom == ReadFrom.END;
    if (listedAt == null || !now.isBefore(listedAt.plus(spec.globInterval()))) {
      listed = listing.list((place, reason) -> reportOnce(sink, place.toString(), reason));
      listedAt = now;
      watchDirectories();
    }
    List<FollowedFile> followed = follow(entries, fromEnd, now, sink);
    Reading reading = new Reading(sink, followed, checkpoint, cancellation);
    try {
      // Rotated-away files first, each to its end: their lines come before the new file's.
      for (FollowedFile file : followed) {
        if (file.rotatedAway) {
          reading.drain(file);
        }
      }
      boolean progress = true;
      while (progress) {
        progress = false;
        for (FollowedFile file : followed) {
          if (!file.rotatedAway && !file.atEnd) {
            progress |= reading.turn(file, LINES_PER_TURN);
          }
        }
      }
      List<FollowedFile> kept = new ArrayList<>();
      for (FollowedFile file : followed) {
        if (!file.listedNow && isDone(file, now)) {
          reading.finish(file);
          LOG.info(
              "event=tail_file_done unit={} file={} offset={} reason=rotated_and_quiet",
              store,
              file.path,
              file.offset);
          open.close(file.identity);
          rotatedAwaySince.remove(file.fingerprint.text());
        } else {
          kept.add(file);
        }
      }
      FileTailMark end = reading.end(kept);
      report(kept);
      forgetAllBut(kept);
      return new Round(end, reading.lines > 0 && grownPastLimit(kept));
    } finally {
      reading.closeStreams();
    }
  }

  /** Whether a file still followed holds more now than this read took as its limit. */
  private static boolean grownPastLimit(List<FollowedFile> kept) {
    for (FollowedFile file : kept) {
      if (file.complete || file.rotatedAway) {
        continue;
      }
      try {
        if (Files.size(file.path) > file.limit) {
          return true;
        }
      } catch (IOException e) {
        // gone or unreadable: the next tick's listing says which
      }
    }
    return false;
  }

  /** Keeps the caches to the files still followed, so they stay as small as the mark. */
  private void forgetAllBut(List<FollowedFile> kept) {
    Set<String> fingerprints = new HashSet<>();
    Set<String> identities = new HashSet<>();
    for (FollowedFile file : kept) {
      fingerprints.add(file.fingerprint.text());
      identities.add(file.identity);
      if (file.complete && file.atEnd && file.listedNow) {
        completeAt.put(file.identity, file.offset);
      }
    }
    lastIdentity.keySet().retainAll(fingerprints);
    rotatedAwaySince.keySet().retainAll(fingerprints);
    lastSize.keySet().retainAll(identities);
    unreadAges.keySet().retainAll(identities);
    completeAt.keySet().retainAll(identities);
    prefixes.keySet().removeIf(key -> !identities.contains(key.substring(0, key.indexOf('|'))));
    reported.removeIf(
        key ->
            (key.startsWith("deleted:") || key.startsWith("renamed:"))
                && !fingerprints.contains(key.substring(key.indexOf(':') + 1)));
  }

  /** Whether a rotated-away file has been quiet for {@code rotate_wait_secs} and is read out. */
  private boolean isDone(FollowedFile file, Instant now) {
    Instant since = rotatedAwaySince.getOrDefault(file.fingerprint.text(), now);
    Instant quietFrom = file.lastWrite.isAfter(since) ? file.lastWrite : since;
    return file.atEnd && !now.isBefore(quietFrom.plus(spec.rotateWait()));
  }

  // ---------------------------------------------------------------------------------------------
  // Which files, from where

  private List<FollowedFile> follow(
      List<FileTailMark.TailedFile> entries, boolean fromEnd, Instant now, RowSink sink)
      throws InterruptedException {
    List<FileAssignment.Entry> parsed = new ArrayList<>();
    for (FileTailMark.TailedFile entry : entries) {
      Optional<Fingerprint> fingerprint = Fingerprint.parse(entry.fingerprint());
      if (fingerprint.isEmpty() || fingerprint.get().strategy() != spec.fingerprint().strategy()) {
        LOG.warn(
            "event=tail_entry_dropped unit={} file={} offset={} reason=\"its fingerprint is not"
                + " one fingerprint.strategy {} takes: the file is read from its start\"",
            store,
            entry.path(),
            entry.offset(),
            spec.fingerprint().strategy().configName());
        continue;
      }
      parsed.add(new FileAssignment.Entry(fingerprint.get(), entry.path(), entry.offset()));
    }
    Set<String> unreadable = new HashSet<>();
    Set<String> emptied = new HashSet<>();
    Set<String> identities = new HashSet<>();
    List<FileAssignment.Found> found = new ArrayList<>();
    Map<FileAssignment.Found, BasicFileAttributes> attributes = new HashMap<>();
    Map<FileAssignment.Found, Prefix> prefixOf = new HashMap<>();
    for (Path path : listed) {
      BasicFileAttributes attrs;
      try {
        attrs = Files.readAttributes(path, BasicFileAttributes.class);
      } catch (NoSuchFileException e) {
        continue; // gone since the listing: its entry, if any, is looked for below
      } catch (IOException e) {
        reportOnce(sink, path.toString(), "unreadable");
        unreadable.add(path.toString());
        continue;
      }
      if (!attrs.isRegularFile()) {
        continue;
      }
      String identity = identityOf(path, attrs);
      if (!identities.add(identity)) {
        continue; // the same file under a second path (a link): followed once, under the first
      }
      Optional<Prefix> prefix = prefix(path, identity, attrs, sink);
      if (prefix.isEmpty()) {
        unreadable.add(path.toString());
      }
      if (prefix.isPresent() && prefix.get().length() == 0) {
        emptied.add(identity);
      }
      if (prefix.isEmpty() || prefix.get().length() == 0) {
        continue; // unreadable (reported), or empty: nothing to read, no fingerprint yet
      }
      FileAssignment.Found file =
          new FileAssignment.Found(
              path.toString(), identity, prefix.get().bytes(), prefix.get().length());
      found.add(file);
      attributes.put(file, attrs);
      prefixOf.put(file, prefix.get());
    }
    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(found, parsed, lastIdentity);
    List<FollowedFile> followed = new ArrayList<>();
    Set<FileAssignment.Entry> continued = new HashSet<>(assigned.values());
    for (FileAssignment.Found file : found) {
      BasicFileAttributes attrs = attributes.get(file);
      Prefix prefix = prefixOf.get(file);
      Fingerprint fingerprint =
          Fingerprint.of(spec.fingerprint(), file.identity(), file.prefix(), file.length())
              .orElseThrow();
      Instant modified = attrs.lastModifiedTime().toInstant();
      Path path = Path.of(file.path());
      FileAssignment.Entry entry = assigned.get(file);
      long offset;
      boolean moved = false;
      if (entry == null) {
        if (spec.ignoreOlder().isPresent()
            && modified.isBefore(now.minus(spec.ignoreOlder().get()))) {
          continue;
        }
        offset = fromEnd ? endOfLastLine(path, prefix) : 0;
        if (wasTruncated(file, attrs.size(), parsed, continued)) {
          LOG.info(
              "event=tail_rotation unit={} file={} kind=truncate size={} reason=\"the file it"
                  + " was shrank and starts with other bytes now\"",
              store,
              path,
              attrs.size());
          rotation("truncate");
        }
        LOG.info(
            "event=tail_file_found unit={} file={} offset={} fingerprint={}",
            store,
            path,
            offset,
            fingerprint.text());
      } else {
        offset = entry.offset();
        if (!prefix.gzip() && offset > attrs.size()) {
          LOG.info(
              "event=tail_rotation unit={} file={} kind=truncate offset={} size={}",
              store,
              path,
              offset,
              attrs.size());
          rotation("truncate");
          offset = 0;
        }
        moved = !entry.path().equals(file.path());
        if (moved) {
          LOG.info(
              "event=tail_rotation unit={} file={} kind=rename from={}", store, path, entry.path());
          rotation("rename");
        }
      }
      String previous = lastFingerprintAt.put(file.path(), fingerprint.text());
      if (previous != null && entry == null && !previous.equals(fingerprint.text())) {
        LOG.info("event=tail_new_file_at_path unit={} file={}", store, path);
      }
      lastIdentity.put(fingerprint.text(), file.identity());
      FollowedFile followedFile =
          new FollowedFile(
              file.identity(),
              path,
              fingerprint,
              offset,
              prefix.gzip() ? Long.MAX_VALUE : attrs.size(),
              modified);
      followedFile.complete = prefix.gzip();
      followedFile.rotatedAway = moved;
      followedFile.listedNow = true;
      Long completeEnd = completeAt.get(file.identity());
      if (followedFile.complete && completeEnd != null && completeEnd == offset) {
        followedFile.atEnd = true; // read to its end before, and a gzip file does not grow
      }
      followed.add(followedFile);
    }
    for (FileAssignment.Entry entry : parsed) {
      if (continued.contains(entry)) {
        continue;
      }
      if (unreadable.contains(entry.path())) {
        // Kept as it is until the file can be read again: dropping it would read it again whole.
        FollowedFile kept =
            new FollowedFile(
                "unreadable:" + entry.path(),
                Path.of(entry.path()),
                entry.fingerprint(),
                entry.offset(),
                entry.offset(),
                now);
        kept.listedNow = true;
        kept.atEnd = true;
        followed.add(kept);
        continue;
      }
      Optional<FollowedFile> rotated = rotatedAway(entry, now);
      if (rotated.isPresent()) {
        followed.add(rotated.get());
      } else if (emptied.contains(lastIdentity.get(entry.fingerprint().text()))) {
        // Truncated to nothing and no copy beside it: it is read from its start once it grows.
        LOG.info(
            "event=tail_rotation unit={} file={} kind=truncate offset={} size=0",
            store,
            entry.path(),
            entry.offset());
        rotation("truncate");
        rotatedAwaySince.remove(entry.fingerprint().text());
      } else {
        gone(entry);
      }
    }
    Set<String> listedNames = new HashSet<>();
    listed.forEach(path -> listedNames.add(path.toString()));
    lastFingerprintAt.keySet().retainAll(listedNames);
    return followed;
  }

  /**
   * Whether {@code file}, which continues no entry, is the file an entry was read from (the same
   * identity, last read by this process) now shorter than that entry's offset: truncated in place
   * and written again, so its first bytes no longer match.
   */
  private boolean wasTruncated(
      FileAssignment.Found file,
      long size,
      List<FileAssignment.Entry> entries,
      Set<FileAssignment.Entry> continued) {
    for (FileAssignment.Entry entry : entries) {
      if (!continued.contains(entry)
          && file.identity().equals(lastIdentity.get(entry.fingerprint().text()))
          && size < entry.offset()) {
        return true;
      }
    }
    return false;
  }

  /** The file of an entry no listed file continues, through its open handle or beside its path. */
  private Optional<FollowedFile> rotatedAway(FileAssignment.Entry entry, Instant now) {
    String text = entry.fingerprint().text();
    rotatedAwaySince.putIfAbsent(text, now);
    String identity = lastIdentity.get(text);
    if (identity != null) {
      Optional<OpenFile> handle = open.get(identity);
      if (handle.isPresent()) {
        Optional<FollowedFile> file = throughHandle(entry, handle.get(), now);
        if (file.isPresent()) {
          return file;
        }
        open.close(identity);
      }
    }
    return besideItsPath(entry, now);
  }

  private Optional<FollowedFile> throughHandle(
      FileAssignment.Entry entry, OpenFile handle, Instant now) {
    try {
      byte[] prefix = new byte[spec.fingerprint().span()];
      int length = handle.prefix(prefix);
      if (!entry.fingerprint().matches(handle.identity(), prefix, length)) {
        return Optional.empty(); // truncated and rewritten in place: not the file it was
      }
      long size = handle.size();
      Long before = lastSize.put(handle.identity(), size);
      Instant lastWrite =
          before == null || before != size ? now : rotatedAwaySince.get(entry.fingerprint().text());
      FollowedFile file =
          new FollowedFile(
              handle.identity(),
              Path.of(entry.path()),
              entry.fingerprint(),
              entry.offset(),
              handle.isGzip() ? Long.MAX_VALUE : size,
              lastWrite);
      file.rotatedAway = true;
      file.complete = handle.isGzip();
      if (!Files.exists(Path.of(entry.path()))) {
        if (reported.add("deleted:" + entry.fingerprint().text())) {
          LOG.info(
              "event=tail_rotation unit={} file={} kind=deleted offset={}",
              store,
              entry.path(),
              entry.offset());
          rotation("deleted");
        }
      } else if (reported.add("renamed:" + entry.fingerprint().text())) {
        LOG.info(
            "event=tail_rotation unit={} file={} kind=rename offset={}",
            store,
            entry.path(),
            entry.offset());
        rotation("rename");
      }
      return Optional.of(file);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * After a restart no handle is open: a rotated file is looked for in its old directory, among the
   * files whose name starts with its old name.
   */
  private Optional<FollowedFile> besideItsPath(FileAssignment.Entry entry, Instant now) {
    Path old = Path.of(entry.path());
    Path directory = old.getParent();
    Path name = old.getFileName();
    if (directory == null || name == null || !Files.isDirectory(directory)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> siblings =
        Files.newDirectoryStream(
            directory, sibling -> sibling.getFileName().toString().startsWith(name.toString()))) {
      for (Path sibling : siblings) {
        BasicFileAttributes attrs;
        try {
          attrs = Files.readAttributes(sibling, BasicFileAttributes.class);
        } catch (IOException e) {
          continue;
        }
        if (!attrs.isRegularFile() || listed.contains(sibling)) {
          continue;
        }
        String identity = identityOf(sibling, attrs);
        OpenFile handle;
        try {
          handle = open.open(sibling, identity);
        } catch (IOException e) {
          continue;
        }
        byte[] prefix = new byte[spec.fingerprint().span()];
        int length;
        try {
          length = handle.prefix(prefix);
        } catch (IOException e) {
          open.close(identity);
          continue;
        }
        if (!entry.fingerprint().matches(identity, prefix, length)) {
          open.close(identity);
          continue;
        }
        LOG.info(
            "event=tail_rotation unit={} file={} kind=rename from={} offset={} found=after_restart",
            store,
            sibling,
            entry.path(),
            entry.offset());
        rotation("rename");
        lastIdentity.put(entry.fingerprint().text(), identity);
        FollowedFile file =
            new FollowedFile(
                identity,
                sibling,
                entry.fingerprint(),
                entry.offset(),
                handle.isGzip() ? Long.MAX_VALUE : attrs.size(),
                attrs.lastModifiedTime().toInstant());
        file.rotatedAway = true;
        file.complete = handle.isGzip();
        return Optional.of(file);
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private void gone(FileAssignment.Entry entry) {
    LOG.warn(
        "event=tail_file_gone unit={} file={} offset={} reason=\"no file has its fingerprint any"
            + " more (deleted or rewritten before it was read to its end)\"",
        store,
        entry.path(),
        entry.offset());
    rotation("deleted");
    rotatedAwaySince.remove(entry.fingerprint().text());
  }

  private Optional<Prefix> prefix(
      Path path, String identity, BasicFileAttributes attrs, RowSink sink)
      throws InterruptedException {
    Instant modified = attrs.lastModifiedTime().toInstant();
    String key = identity + "|" + path;
    Prefix cached = prefixes.get(key);
    if (cached != null && cached.size() == attrs.size() && cached.modified().equals(modified)) {
      return Optional.of(cached);
    }
    if (attrs.size() == 0) {
      return Optional.of(new Prefix(0, modified, new byte[0], 0, false));
    }
    try {
      OpenFile handle = open.open(path, identity);
      byte[] bytes = new byte[spec.fingerprint().span()];
      int length = handle.prefix(bytes);
      Prefix prefix = new Prefix(attrs.size(), modified, bytes, length, handle.isGzip());
      prefixes.put(key, prefix);
      if (reported.remove("unreadable:" + path)) {
        LOG.info("event=tail_file_readable unit={} file={}", store, path);
      }
      return Optional.of(prefix);
    } catch (AccessDeniedException e) {
      reportOnce(sink, path.toString(), "unreadable");
      return Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throwIfInterrupted(e, path, identity);
      reportOnce(sink, path.toString(), "unreadable");
      return Optional.empty();
    }
  }

  /**
   * Throws when {@code e} is the read being interrupted rather than the file failing: a cancelled
   * tick (a stop, a reload, the driver's failure) interrupts the reading thread, and an
   * interruptible channel then closes under the read ({@link ClosedByInterruptException}, or {@link
   * AsynchronousCloseException} when another thread closed it). The file is fine, so it is neither
   * logged nor counted as unreadable; its closed handle is dropped, to be opened again by the next
   * read.
   */
  private void throwIfInterrupted(IOException e, Path path, String identity)
      throws InterruptedException {
    if (e instanceof AsynchronousCloseException) {
      open.close(identity);
      InterruptedException interrupted =
          new InterruptedException("the read of " + path + " was interrupted");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  /** Where {@code read_from: end} starts a file: after its last newline before its end. */
  private long endOfLastLine(Path path, Prefix prefix) {
    if (prefix.gzip()) {
      return 0; // a complete file: read_from applies to files being written
    }
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long end = channel.size();
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      long from = end;
      long scanned = 0;
      while (from > 0 && scanned <= spec.maxLineBytes()) {
        int length = (int) Math.min(buffer.capacity(), from);
        buffer.clear().limit(length);
        channel.read(buffer, from - length);
        for (int i = length - 1; i >= 0; i--) {
          if (buffer.get(i) == '\n') {
            return from - length + i + 1;
          }
        }
        from -= length;
        scanned += length;
      }
      return from == 0 ? 0 : end;
    } catch (IOException e) {
      return 0;
    }
  }

  private static String identityOf(Path path, BasicFileAttributes attrs) {
    Object key = attrs.fileKey();
    return key != null ? key.toString() : "path:" + path;
  }

  private void reportOnce(RowSink sink, String place, String reason) {
    if (reported.add(reason + ":" + place)) {
      sink.skipped(place, reason);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Metrics

  private void rotation(String kind) {
    metrics.increment(MetricNames.TAIL_ROTATIONS, store, Map.of("kind", kind));
  }

  private void report(List<FollowedFile> kept) {
    metrics.set(MetricNames.TAIL_FILES_WATCHED, store, Map.of(), kept.size());
    Instant at = clock.instant();
    Set<String> now = new LinkedHashSet<>();
    for (FollowedFile file : kept) {
      if (file.complete) {
        continue;
      }
      String label = file.path.toString();
      now.add(label);
      metrics.set(
          MetricNames.TAIL_LAG_BYTES,
          store,
          Map.of("file", label),
          Math.max(0, file.limit - file.offset));
      UnreadAge age = unreadAges.computeIfAbsent(file.identity, identity -> new UnreadAge());
      Instant writtenBy =
          file.lastWrite == null || file.lastWrite.isAfter(at) ? at : file.lastWrite;
      age.observe(file.limit, writtenBy);
      metrics.set(
          MetricNames.TAIL_LAG_SECONDS,
          store,
          Map.of("file", label),
          age.at(file.offset, at).toMillis() / 1000.0);
    }
    for (String gone : lagSeries) {
      if (!now.contains(gone)) {
        metrics.remove(MetricNames.TAIL_LAG_BYTES, store, Map.of("file", gone));
        metrics.remove(MetricNames.TAIL_LAG_SECONDS, store, Map.of("file", gone));
      }
    }
    lagSeries.clear();
    lagSeries.addAll(now);
  }

  /** How many files the unit holds open now: at most {@code max_open_files}. */
  int openFileCount() {
    return open.size();
  }

  /**
   * Runs {@code wake} whenever a file the unit follows, or one its globs match, is created, written
   * or removed: the directories of the globs and of the listed files are watched (inotify), so a
   * line is read moments after it is written rather than at the next tick.
   */
  @Override
  public void wakeOn(Runnable wake) {
    this.wake = wake;
    watchDirectories();
  }

  private void watchDirectories() {
    if (wake == null) {
      return;
    }
    Optional<DirectoryWatch> watch = DirectoryWatch.shared();
    if (watch.isEmpty()) {
      return;
    }
    Set<Path> directories = new LinkedHashSet<>(listing.watchRoots());
    for (Path file : listed) {
      if (file.getParent() != null) {
        directories.add(file.getParent());
      }
    }
    for (Path directory : directories) {
      // A directory not made yet is watched once a listing after it exists finds its files.
      watch.get().listen(directory, changes);
    }
  }

  private void changed(Path file) {
    Runnable told = wake;
    if (told != null && (listed.contains(file) || listing.matches(file))) {
      told.run();
    }
  }

  @Override
  public void close() {
    if (wake != null) {
      wake = null;
      DirectoryWatch.shared().ifPresent(watch -> watch.forget(changes));
    }
    open.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** One read's pass over the followed files: lines to rows, offsets to marks. */
  private final class Reading {
    private final RowSink sink;
    private final List<FollowedFile> followed;
    private final Cancellation cancellation;
    private final Map<FollowedFile, LineReader> readers = new HashMap<>();
    private final Map<FollowedFile, InputStream> streams = new HashMap<>();
    private final Map<FollowedFile, Event> pending = new HashMap<>();
    private Optional<FileTailMark> lastMark;
    private int rowsSinceMark;
    private long lines;
    private long bytes;

    Reading(
        RowSink sink,
        List<FollowedFile> followed,
        Optional<Mark> checkpoint,
        Cancellation cancellation) {
      this.sink = sink;
      this.followed = followed;
      this.cancellation = cancellation;
      this.lastMark = checkpoint.map(FileTailMark.class::cast);
    }

    /** Reads {@code file} to its limit. */
    void drain(FollowedFile file) throws SourceException, InterruptedException {
      while (turn(file, Integer.MAX_VALUE)) {
        // each turn hands over lines; the file is drained when one hands over none
      }
    }

    /** Up to {@code maxLines} lines of {@code file}; whether any was read. */
    boolean turn(FollowedFile file, int maxLines) throws SourceException, InterruptedException {
      cancellation.throwIfCancelled();
      if (file.atEnd) {
        return false;
      }
      if (!file.complete && file.offset >= file.limit) {
        file.atEnd = true;
        flushPending(file, false);
        return false;
      }
      LineReader reader;
      try {
        reader = reader(file);
      } catch (IOException e) {
        skipFile(file, e);
        return false;
      }
      int count = 0;
      try {
        while (count < maxLines) {
          LineReader.Line line = reader.next();
          if (line == null) {
            file.atEnd = true;
            if (file.complete) {
              LineReader.Line rest = reader.rest();
              if (rest != null) {
                line(file, rest);
              }
              flushPending(file, true);
            } else {
              if (partialLineTimedOut(file)) {
                LineReader.Line rest = reader.rest();
                if (rest != null) {
                  line(file, rest);
                  count++;
                }
              }
              flushPending(file, false);
            }
            return count > 0;
          }
          line(file, line);
          count++;
        }
      } catch (IOException e) {
        skipFile(file, e);
        return false;
      }
      return true;
    }

    /**
     * Whether a partial last line is to be read as it stands: {@code partial_line_timeout_secs} is
     * set and the file has not been written to for that long.
     */
    private boolean partialLineTimedOut(FollowedFile file) {
      return spec.partialLineTimeout()
          .map(timeout -> !clock.instant().isBefore(file.lastWrite.plus(timeout)))
          .orElse(false);
    }

    /** The end of a rotated-away file that is done: its last line even without a newline. */
    void finish(FollowedFile file) throws InterruptedException {
      LineReader reader = readers.get(file);
      if (reader != null && !file.complete) {
        LineReader.Line rest = reader.rest();
        if (rest != null) {
          line(file, rest);
        }
      }
      flushPending(file, true);
    }

    private LineReader reader(FollowedFile file) throws IOException {
      LineReader reader = readers.get(file);
      if (reader == null) {
        OpenFile handle = open.open(file.path, file.identity);
        InputStream in = handle.content(file.offset);
        streams.put(file, in);
        reader = new LineReader(in, file.offset, file.limit, spec.maxLineBytes());
        readers.put(file, reader);
      }
      return reader;
    }

    private void skipFile(FollowedFile file, IOException e) throws InterruptedException {
      throwIfInterrupted(e, file.path, file.identity);
      file.atEnd = true;
      if (reported.add("unreadable:" + file.path)) {
        LOG.warn(
            "event=tail_file_unreadable unit={} file={} offset={} reason=\"{}\"",
            store,
            file.path,
            file.offset,
            TailListing.describe(e));
        sink.skipped(file.path.toString(), "unreadable");
      }
      open.close(file.identity);
    }

    private void line(FollowedFile file, LineReader.Line line) throws InterruptedException {
      lines++;
      bytes += line.end() - line.start();
      if (multiline.isEmpty()) {
        emit(file, new Event(line.start(), line.end(), line.bytes(), line.kept(), line.length()));
        return;
      }
      Event event = pending.get(file);
      String text =
          new String(line.bytes(), 0, line.kept(), java.nio.charset.StandardCharsets.UTF_8);
      if (event == null || spec.multiline().get().startsEvent(multiline.get(), text)) {
        if (event != null) {
          emit(file, event);
        }
        pending.put(
            file, new Event(line.start(), line.end(), line.bytes(), line.kept(), line.length()));
      } else {
        pending.put(file, event.join(line, spec.maxLineBytes()));
      }
    }

    /**
     * The event at the end of the file: handed on when the file is complete or has been quiet for
     * the multiline timeout, else held (read again next time from its start).
     */
    private void flushPending(FollowedFile file, boolean complete) throws InterruptedException {
      Event event = pending.get(file);
      if (event == null) {
        return;
      }
      Duration timeout = spec.multiline().get().timeout();
      if (complete || !clock.instant().isBefore(file.lastWrite.plus(timeout))) {
        pending.remove(file);
        emit(file, event);
      }
    }

    private void emit(FollowedFile file, Event event) throws InterruptedException {
      file.offset = event.end();
      String place = file.place(event.start());
      if (event.length() > spec.maxLineBytes()) {
        sink.badRecord(
            place,
            "a line of "
                + event.length()
                + " bytes is longer than max_line_bytes ("
                + event.length()
                + " > "
                + spec.maxLineBytes()
                + ")",
            java.util.Arrays.copyOf(event.bytes(), event.kept()));
        return;
      }
      TailRecords.Decoded decoded =
          records.decode(event.bytes(), event.kept(), file.path.toString(), event.start());
      if (decoded instanceof TailRecords.Record record) {
        Optional<Mark> mark = Optional.empty();
        // A mark copies every file's entry: with many files, marks come less often, so that
        // building them costs at most a few entries a row.
        if (++rowsSinceMark >= Math.max(MARK_EVERY_ROWS, 4L * followed.size())) {
          FileTailMark now = mark();
          mark = Optional.of(now);
          lastMark = Optional.of(now);
          rowsSinceMark = 0;
        }
        sink.row(new Row(record.record(), clock.millis(), mark, place));
      } else if (decoded instanceof TailRecords.Bad bad) {
        sink.badRecord(place, bad.reason(), java.util.Arrays.copyOf(event.bytes(), event.kept()));
      }
      // a blank line lands nothing; its offset goes with the next mark
    }

    private FileTailMark mark() {
      return mark(followed);
    }

    private FileTailMark mark(List<FollowedFile> files) {
      List<FileTailMark.TailedFile> entries = new ArrayList<>(files.size());
      for (FollowedFile file : files) {
        entries.add(
            new FileTailMark.TailedFile(
                file.fingerprint.text(), file.path.toString(), file.offset));
      }
      return new FileTailMark(entries);
    }

    /** Closes the streams the read opened (a gzip stream holds an inflater), whatever happened. */
    void closeStreams() {
      for (InputStream in : streams.values()) {
        try {
          in.close();
        } catch (IOException ignored) {
          // the handle stays open in OpenFiles; the stream holds nothing else
        }
      }
      streams.clear();
    }

    /** Ends the read: counts, and commits where {@code kept} stand, which it returns. */
    FileTailMark end(List<FollowedFile> kept) throws InterruptedException {
      metrics.add(MetricNames.TAIL_LINES, store, Map.of(), lines);
      metrics.add(MetricNames.TAIL_BYTES, store, Map.of(), bytes);
      FileTailMark end = mark(kept);
      if (lastMark.isEmpty() || !lastMark.get().equals(end)) {
        sink.advance(end);
      }
      return end;
    }
  }

  /** A line, or several joined by multiline, on its way to the sink. */
  private record Event(long start, long end, byte[] bytes, int kept, long length) {

    Event join(LineReader.Line line, int keepBytes) {
      long joinedLength = length + 1 + line.length();
      int room = (int) Math.max(0, Math.min(keepBytes - (long) kept, 1 + line.kept()));
      byte[] joined = java.util.Arrays.copyOf(bytes, kept + room);
      if (room > 0) {
        joined[kept] = '\n';
        System.arraycopy(line.bytes(), 0, joined, kept + 1, room - 1);
      }
      return new Event(start, line.end(), joined, kept + room, joinedLength);
    }
  }
}
