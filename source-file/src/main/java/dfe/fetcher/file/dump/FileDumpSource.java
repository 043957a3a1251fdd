package dfe.fetcher.file.dump;

import dfe.fetcher.file.dump.RecordReader.DecodedRecord;
import dfe.fetcher.oversize.OversizePolicy;
import dfe.fetcher.row.Cancellation;
import dfe.fetcher.row.FileMark;
import dfe.fetcher.row.Mark;
import dfe.fetcher.row.Row;
import dfe.fetcher.row.RowKey;
import dfe.fetcher.row.RowSink;
import dfe.fetcher.row.RowSource;
import dfe.fetcher.row.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@code sources.file} dump unit: each file its globs match is one dump part, read when it is new
 * or has changed since the checkpoint.
 *
 * <p>On {@link #read}:
 *
 * <ol>
 *   <li>The directories the globs name are walked (only each glob's leading literal directory; a
 *       directory that does not exist holds no files; symbolic links are followed, loops skipped).
 *       Each matching regular file gets the mark {@code FileMark(last-modified time at full
 *       precision, normalized absolute path)}, taken when it is listed.
 *   <li>Files whose mark is not strictly after the checkpoint's are dropped, comparing the (time,
 *       path) pair: two files changed in the same instant are both read, and a file rewritten in
 *       place (a later time) is read again. A file that appears with a time before the checkpoint
 *       (moved in with its old time kept) is never read.
 *   <li>The rest are read oldest first, ties broken by path, each completely before the next: when
 *       its first record has been decoded, {@link RowSink#beginPart beginPart(empty)}, then {@link
 *       RowSink#row row} for each record, then {@link RowSink#endPart endPart(mark)}. A file
 *       without records gets {@code beginPart} then {@code endPart} once its clean end is reached.
 *       With no file to read the sink is not called at all.
 * </ol>
 *
 * <p>Each row carries {@code Row.ofDump(content, clock.millis(), "FILE:LINE")}, FILE the mark's
 * path and LINE where the record starts. Memory does not grow with the file: files are streamed
 * through fixed-size buffers, and a record longer than the unit's {@code oversize.max_record_bytes}
 * (whatever its length) is measured while it streams past and handed over as a {@link Row.NotKept}
 * (exact length, first {@code max_dlq_bytes} bytes, {@code row_key} when its value lies within the
 * first {@code max_record_bytes} bytes), which the driver turns into a stub; the file goes on with
 * its next record. See each decoder for what it must still hold of a long record.
 *
 * <p>When a file cannot be listed, opened, decompressed or decoded, {@code read} throws a {@link
 * SourceException} whose message starts with {@code FILE:LINE:COLUMN: } (or {@code FILE:LINE: }
 * where no column is known, {@code FILE: } where no line applies) and says what is wrong without
 * quoting the content; the files before it were ended, the bad file is not. Exceptions the sink
 * throws, including {@link InterruptedException}, propagate unchanged, and the file is closed. A
 * file channel closed by an interrupt surfaces as {@link InterruptedException}, not as bad input.
 *
 * <p>Holds no state between reads; one instance may be read from several threads.
 */
public final class FileDumpSource implements RowSource {

  private final Decoder decoder;
  private final List<PathGlob> globs;
  private final Clock clock;
  private final OversizePolicy oversize;
  private final Optional<RowKey> rowKey;

  /** A unit with the design's default oversize policy and no {@code row_key}. */
  public FileDumpSource(FileDumpSpec spec, Clock clock) {
    this(spec, clock, OversizePolicy.DEFAULT, Optional.empty());
  }

  /**
   * A unit reading what {@code spec} describes, stamping rows with {@code clock}'s time.
   *
   * @param oversize the deployment's {@code oversize:} block: a record longer than its {@code
   *     max_record_bytes} is not held (see the class)
   * @param rowKey the unit's {@code row_key}, looked up in the first bytes of a record not held
   */
  public FileDumpSource(
      FileDumpSpec spec, Clock clock, OversizePolicy oversize, Optional<RowKey> rowKey) {
    Objects.requireNonNull(spec, "spec");
    this.decoder = spec.decoder();
    this.globs = spec.globs();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.oversize = Objects.requireNonNull(oversize, "oversize");
    this.rowKey = Objects.requireNonNull(rowKey, "rowKey");
  }

  /**
   * Reads every matching file after {@code checkpoint}, as the class describes.
   *
   * @param checkpoint a {@link FileMark} this unit produced, or empty to read every file
   * @throws IllegalArgumentException when {@code checkpoint} is not a {@link FileMark}
   */
  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(cancellation, "cancellation");
    Optional<FileMark> after = checkpoint.map(FileDumpSource::asFileMark);
    for (ListedFile file : filesAfter(after)) {
      cancellation.throwIfCancelled();
      dump(file, sink, cancellation);
    }
  }

  private static FileMark asFileMark(Mark mark) {
    if (mark instanceof FileMark fileMark) {
      return fileMark;
    }
    throw new IllegalArgumentException("a file dump's checkpoint is a FileMark, not " + mark);
  }

  /** One file to read and the mark it will be ended with. */
  private record ListedFile(Path path, FileMark mark) {
    String name() {
      return mark.path();
    }
  }

  private List<ListedFile> filesAfter(Optional<FileMark> checkpoint) throws SourceException {
    Map<String, ListedFile> files = new LinkedHashMap<>();
    for (PathGlob glob : globs) {
      list(glob, checkpoint, files);
    }
    List<ListedFile> ordered = new ArrayList<>(files.values());
    ordered.sort((a, b) -> a.mark().compareTo(b.mark()));
    return ordered;
  }

  private static void list(
      PathGlob glob, Optional<FileMark> checkpoint, Map<String, ListedFile> files)
      throws SourceException {
    Path root = glob.walkRoot();
    try {
      Files.walkFileTree(
          root,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          glob.maxDepth(),
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile() && glob.matches(file)) {
                FileMark mark =
                    new FileMark(attributes.lastModifiedTime().toInstant(), file.toString());
                if (checkpoint.isEmpty() || mark.isAfter(checkpoint.get())) {
                  files.putIfAbsent(mark.path(), new ListedFile(file, mark));
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure)
                throws IOException {
              // A missing root holds no files yet; an entry removed while walking is not there;
              // a link loop leads back to files that are reached the direct way.
              if (failure instanceof NoSuchFileException
                  || failure instanceof FileSystemLoopException) {
                return FileVisitResult.CONTINUE;
              }
              throw failure;
            }
          });
    } catch (IOException e) {
      throw new SourceException(
          "cannot list the files of \"" + glob.glob() + "\" under " + root + ": " + reasonOf(e), e);
    }
  }

  private void dump(ListedFile file, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    RecordFormat format =
        decoder
            .formatFor(file.path().getFileName().toString())
            .orElseThrow(
                () ->
                    new SourceException(
                        file.name()
                            + ": cannot tell the decoder from the file name's extension"
                            + " (auto knows .ndjson, .jsonl, .json and .csv, each optionally"
                            + " .gz); set the unit's decoder to ndjson, json_array or csv"));
    // A read blocked on a slow file system ends when the stream is closed under it.
    try (RecordReader reader = open(file, format);
        Cancellation.Registration closeOnCancel = cancellation.onCancel(reader::close)) {
      DecodedRecord record = next(reader, file, cancellation);
      sink.beginPart(OptionalLong.empty());
      while (record != null) {
        sink.row(
            new Row(
                record.content(),
                clock.millis(),
                Optional.empty(),
                file.name() + ":" + record.line()));
        record = next(reader, file, cancellation);
      }
    }
    sink.endPart(Optional.of(file.mark()));
  }

  private RecordReader open(ListedFile file, RecordFormat format)
      throws SourceException, InterruptedException {
    InputStream content = null;
    try {
      content = FileContent.open(file.path());
      return format.reader(content, new RecordBytes(oversize, rowKey));
    } catch (IOException e) {
      if (content != null) {
        closeQuietly(content);
      }
      throw failure(file.name(), e);
    }
  }

  private static DecodedRecord next(RecordReader reader, ListedFile file, Cancellation cancellation)
      throws SourceException, InterruptedException {
    try {
      return reader.next();
    } catch (InvalidRecordException e) {
      // Not chained: the place and the problem are all there is to say.
      throw new SourceException(file.name() + ":" + e.place() + ": " + e.getMessage());
    } catch (IOException e) {
      cancellation.throwIfCancelled();
      throw failure(file.name() + ":" + reader.line(), e);
    }
  }

  /** The exception for {@code failure} at {@code place} ({@code FILE} or {@code FILE:LINE}). */
  private static SourceException failure(String place, IOException failure)
      throws InterruptedException {
    if (failure instanceof ClosedByInterruptException) {
      // The channel was closed because the thread was interrupted: that is a stop, not bad input.
      // (JDK 17's default file system reads files uninterruptibly; other providers may not.)
      // Whoever throws InterruptedException has consumed the interrupt.
      Thread.interrupted();
      InterruptedException interrupted =
          new InterruptedException("interrupted while reading " + place);
      interrupted.initCause(failure);
      throw interrupted;
    }
    if (failure instanceof CorruptGzipException) {
      return new SourceException(place + ": " + failure.getMessage(), failure);
    }
    return new SourceException(place + ": cannot read: " + reasonOf(failure), failure);
  }

  private static String reasonOf(IOException failure) {
    if (failure instanceof NoSuchFileException) {
      return "no such file (removed after it was listed?)";
    }
    if (failure instanceof AccessDeniedException) {
      return "permission denied";
    }
    return failure.toString();
  }

  private static void closeQuietly(InputStream content) {
    try {
      content.close();
    } catch (IOException ignored) {
      // See RecordReader.close: nothing read is lost by a failed close.
    }
  }
}
