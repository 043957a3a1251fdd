package dfe.fetcher.file.tail;

import dfe.fetcher.file.dump.PathGlob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tail unit follows and how ({@code units[].tail}).
 *
 * @param paths the globs of the files to follow, absolute
 * @param exclude globs of files not to follow although {@code paths} match them: one without a
 *     {@code /} is matched against the file's name, one with a {@code /} against its whole path
 *     (absolute)
 * @param baseDirectory the configuration file's directory
 * @param readFrom where a unit without any checkpoint starts in the files of its first read
 * @param decoder how a line becomes a record
 * @param maxLineBytes a line (or multiline event) longer than this goes to the DLQ, whole lines
 *     only
 * @param multiline how lines join into events; empty: every line is one record
 * @param fingerprint how files are told apart
 * @param rotateWait how long a file no longer named by its path (renamed away or deleted) is still
 *     followed after its last write
 * @param ignoreOlder a file not yet followed whose last write is older than this is not followed;
 *     empty: none is ignored
 * @param globInterval how often the globs are walked again for new files; the files already
 *     followed are looked at on every read
 * @param maxOpenFiles how many files the unit holds open at most between reads (least recently read
 *     closed first)
 * @param partialLineTimeout a last line without its newline in a file not written to for this long
 *     is read as a whole line (its rest, should it come, is then a line of its own); empty: such a
 *     line is held until its newline is written, however long that takes
 */
public record FileTailSpec(
    List<String> paths,
    List<String> exclude,
    Path baseDirectory,
    ReadFrom readFrom,
    TailDecoder decoder,
    int maxLineBytes,
    Optional<MultilineSpec> multiline,
    FingerprintSpec fingerprint,
    Duration rotateWait,
    Optional<Duration> ignoreOlder,
    Duration globInterval,
    int maxOpenFiles,
    Optional<Duration> partialLineTimeout) {

  public static final int DEFAULT_MAX_LINE_BYTES = 100 * 1024;
  public static final Duration DEFAULT_ROTATE_WAIT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_GLOB_INTERVAL = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_OPEN_FILES = 1024;

  /** A unit with every default: from the beginning, NDJSON, checksum fingerprints. */
  public FileTailSpec(List<String> paths, Path baseDirectory) {
    this(
        paths,
        List.of(),
        baseDirectory,
        ReadFrom.BEGINNING,
        TailDecoder.NDJSON,
        DEFAULT_MAX_LINE_BYTES,
        Optional.empty(),
        FingerprintSpec.DEFAULT,
        DEFAULT_ROTATE_WAIT,
        Optional.empty(),
        DEFAULT_GLOB_INTERVAL,
        DEFAULT_MAX_OPEN_FILES,
        Optional.empty());
  }

  /** A unit that holds a partial last line until its newline, however long that takes. */
  public FileTailSpec(
      List<String> paths,
      List<String> exclude,
      Path baseDirectory,
      ReadFrom readFrom,
      TailDecoder decoder,
      int maxLineBytes,
      Optional<MultilineSpec> multiline,
      FingerprintSpec fingerprint,
      Duration rotateWait,
      Optional<Duration> ignoreOlder,
      Duration globInterval,
      int maxOpenFiles) {
    this(
        paths,
        exclude,
        baseDirectory,
        readFrom,
        decoder,
        maxLineBytes,
        multiline,
        fingerprint,
        rotateWait,
        ignoreOlder,
        globInterval,
        maxOpenFiles,
        Optional.empty());
  }

  public FileTailSpec {
    paths = List.copyOf(paths);
    exclude = List.copyOf(exclude);
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    Objects.requireNonNull(readFrom, "readFrom");
    Objects.requireNonNull(decoder, "decoder");
    Objects.requireNonNull(multiline, "multiline");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(rotateWait, "rotateWait");
    Objects.requireNonNull(ignoreOlder, "ignoreOlder");
    Objects.requireNonNull(globInterval, "globInterval");
    Objects.requireNonNull(partialLineTimeout, "partialLineTimeout");
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("a tail unit needs at least one path");
    }
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("max_line_bytes must be at least 1, was " + maxLineBytes);
    }
    if (maxOpenFiles < 1) {
      throw new IllegalArgumentException("max_open_files must be at least 1, was " + maxOpenFiles);
    }
    if (partialLineTimeout.isPresent() && partialLineTimeout.get().toSeconds() < 1) {
      throw new IllegalArgumentException(
          "partial_line_timeout_secs must be at least 1, was "
              + partialLineTimeout.get().toSeconds());
    }
  }

  /** The globs, compiled against {@link #baseDirectory}. */
  List<PathGlob> globs() {
    return paths.stream().map(glob -> PathGlob.compile(glob, baseDirectory)).toList();
  }
}
