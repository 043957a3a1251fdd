package dfe.fetcher.file.dump;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.file.dump.RecordReader.DecodedRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@code sources.file} dump unit: each file its globs match is one dump part, read unless the
 * checkpoint shows it committed as it is now.
 *
 * <p>On {@link #read}:
 *
 * <ol>
 *   <li>The directories the globs name are walked (only each glob's leading literal directory; a
 *       directory that does not exist holds no files). A symbolic link is followed when its target
 *       lies inside that directory, or always with {@code follow_symlinks}; loops are skipped. Each
 *       matching regular file is stat'ed: identity, size, modification and change time ({@code
 *       unix:ctime}). What the walk passes over is reported through {@link RowSink#skipped}.
 *   <li>Files the checkpoint holds as committed are dropped (see {@link DumpProgress}); files
 *       changed within {@code settle_secs} are reported and held back.
 *   <li>The rest are read in (change time, path) order, each completely before the next: when its
 *       first record has been decoded, {@link RowSink#beginPart beginPart(empty)}, then {@link
 *       RowSink#row row} for each record; then the file is stat'ed again and, unchanged, gets
 *       {@link RowSink#endPart endPart(position)}, the position holding every file committed so
 *       far; changed, it gets {@link RowSink#abortPart} and is read again next time. A file without
 *       records gets {@code beginPart} then its end. With no file to read the sink is not called at
 *       all, but for what was skipped.
 * </ol>
 *
 * <p>Each row carries {@code Row.ofDump(content, clock.millis(), "FILE:LINE")}, FILE the file's
 * normalized absolute path and LINE where the record starts. Memory does not grow with the file:
 * files are streamed through fixed-size buffers, and a record longer than the unit's {@code
 * oversize.max_record_bytes} (whatever its length) is measured while it streams past and handed
 * over as a {@link Row.NotKept} (exact length, first {@code max_dlq_bytes} bytes, {@code row_key}
 * when its value lies within the first {@code max_record_bytes} bytes), which the driver turns into
 * a stub; the file goes on with its next record. See each decoder for what it must still hold of a
 * long record.
 *
 * <p>When a file cannot be opened, decompressed or decoded, {@code read} throws a {@link
 * SourceException} whose message starts with {@code FILE:LINE:COLUMN: } (or {@code FILE:LINE: }
 * where no column is known, {@code FILE: } where no line applies) and says what is wrong without
 * quoting the content; the files before it were ended, the bad file is not. With {@code
 * on_bad_file: skip} it gets {@link RowSink#skipPart} instead and the read goes on. A file removed
 * after it was listed is reported {@code vanished}, not a failure. Exceptions the sink throws,
 * including {@link InterruptedException}, propagate unchanged, and the file is closed. A file
 * channel closed by an interrupt surfaces as {@link InterruptedException}, not as bad input.
 *
 * <p>Holds no state between reads; one instance may be read from several threads.
 */
public final class FileDumpSource implements RowSource {

  private final Decoder decoder;
  private final List<PathGlob> globs;
  private final Duration settle;
  private final FileDumpSpec.BadFilePolicy onBadFile;
  private final boolean followSymlinks;
  private final Clock clock;
  private final OversizePolicy oversize;
  private final Optional<RowKey> rowKey;

  /**
   * A unit with the default oversize policy ({@link OversizePolicy#DEFAULT}) and no {@code
   * row_key}.
   */
  public FileDumpSource(FileDumpSpec spec, Clock clock) {
    this(spec, clock, OversizePolicy.DEFAULT, Optional.empty());
  }

  /**
   * A unit reading what {@code spec} describes, stamping rows with {@code clock}'s time and judging
   * change times (settling, the watermark) by it.
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
    this.settle = spec.settle();
    this.onBadFile = spec.onBadFile();
    this.followSymlinks = spec.followSymlinks();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.oversize = Objects.requireNonNull(oversize, "oversize");
    this.rowKey = Objects.requireNonNull(rowKey, "rowKey");
  }

  /**
   * Reads every matching file not yet committed, as the class describes.
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
    FileListing listing = new FileListing(sink, followSymlinks);
    for (PathGlob glob : globs) {
      listing.walk(glob);
    }
    Instant listedAt = clock.instant();
    DumpProgress progress = new DumpProgress(after, listedAt, listing.names());
    Instant settledBy = listedAt.minus(settle);
    long ahead = 0;
    for (ListedFile file : listing.inChangeOrder()) {
      if (!progress.isCommitted(file.seen())
          && (settle.isZero() || !file.seen().changedAt().isAfter(settledBy))) {
        ahead += file.seen().size();
      }
    }
    if (ahead > 0) {
      sink.inputAhead(ahead);
    }
    Optional<FileMark> uncommittedSkip = Optional.empty();
    for (ListedFile file : listing.inChangeOrder()) {
      cancellation.throwIfCancelled();
      if (progress.isCommitted(file.seen())) {
        continue;
      }
      if (!settle.isZero() && file.seen().changedAt().isAfter(settledBy)) {
        sink.skipped(file.name(), "not_settled");
        progress.holdBack(file.seen());
        continue;
      }
      switch (dump(file, sink, cancellation, progress)) {
        case ENDED -> uncommittedSkip = Optional.empty();
        case SKIPPED_AS_BAD -> uncommittedSkip = Optional.of(progress.commit(file.seen()));
        case HELD_BACK -> progress.holdBack(file.seen());
        case VANISHED -> {}
      }
    }
    if (uncommittedSkip.isPresent()) {
      // No part after the skipped file carries its entry: commit it on its own.
      sink.advance(uncommittedSkip.get());
    }
  }

  private static FileMark asFileMark(Mark mark) {
    if (mark instanceof FileMark fileMark) {
      return fileMark;
    }
    throw new IllegalArgumentException("a file dump's checkpoint is a FileMark, not " + mark);
  }

  /** What became of one file a read tried. */
  private enum Outcome {
    /** Read whole and ended with its position. */
    ENDED,
    /** Bad, and the unit skips bad files: dead-lettered, remembered as done until it changes. */
    SKIPPED_AS_BAD,
    /** Changed while it was read: aborted, read again next time. */
    HELD_BACK,
    /** Gone before it could be opened. */
    VANISHED
  }

  private Outcome dump(
      ListedFile file, RowSink sink, Cancellation cancellation, DumpProgress progress)
      throws SourceException, InterruptedException {
    try {
      return dumpOrFail(file, sink, cancellation, progress);
    } catch (SourceException bad) {
      if (onBadFile == FileDumpSpec.BadFilePolicy.STOP) {
        throw bad;
      }
      sink.skipPart(file.name(), bad.getMessage());
      return Outcome.SKIPPED_AS_BAD;
    }
  }

  private Outcome dumpOrFail(
      ListedFile file, RowSink sink, Cancellation cancellation, DumpProgress progress)
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
    Optional<RecordReader> opened = open(file, format, sink);
    if (opened.isEmpty()) {
      sink.skipped(file.name(), "vanished");
      return Outcome.VANISHED;
    }
    // A read blocked on a slow file system ends when the stream is closed under it.
    try (RecordReader reader = opened.get();
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
    String change = changeSinceListed(file);
    if (!change.isEmpty()) {
      sink.abortPart(
          file.name() + ": changed while it was read (" + change + "); read again next tick");
      return Outcome.HELD_BACK;
    }
    sink.endPart(Optional.of(progress.commit(file.seen())));
    return Outcome.ENDED;
  }

  /**
   * How the file differs now from when it was listed; empty when it is the same file, unchanged.
   */
  private static String changeSinceListed(ListedFile file) throws SourceException {
    try {
      return file.differenceFrom(ListedFile.stat(file.path()));
    } catch (NoSuchFileException e) {
      return "removed";
    } catch (IOException e) {
      throw new SourceException(file.name() + ": cannot look at it again: " + reasonOf(e), e);
    }
  }

  /** The file's records; empty when the file is gone (removed after it was listed). */
  private Optional<RecordReader> open(ListedFile file, RecordFormat format, RowSink sink)
      throws SourceException, InterruptedException {
    InputStream content = null;
    try {
      content = FileContent.open(file.path(), sink::inputRead);
      return Optional.of(format.reader(content, new RecordBytes(oversize, rowKey)));
    } catch (NoSuchFileException e) {
      if (content != null) {
        closeQuietly(content);
      }
      return Optional.empty();
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

  static String reasonOf(IOException failure) {
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
