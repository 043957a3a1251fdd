package dfe.fetcher.file.dump;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.SourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/** A directory of data files with chosen change times, and the dump units that read it. */
final class DataFiles {

  static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-02T08:30:00.123Z"), ZoneOffset.UTC);

  final Path base;
  private Instant lastChange = Instant.EPOCH;

  DataFiles(Path base) {
    this.base = base;
  }

  /**
   * Writes {@code content} as UTF-8 at {@code relative}, last modified {@code seconds} after T0.
   */
  Path write(String relative, String content, long seconds) {
    return write(relative, content.getBytes(StandardCharsets.UTF_8), T0.plusSeconds(seconds));
  }

  Path write(String relative, byte[] content, Instant changedAt) {
    try {
      Path file = base.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      Files.setLastModifiedTime(file, FileTime.from(changedAt));
      afterEveryEarlierFile(file, changedAt);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code content} gzipped, as one gzip member per element. */
  Path writeGzip(String relative, long seconds, String... members) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String member : members) {
      out.writeBytes(gzip(member.getBytes(StandardCharsets.UTF_8)));
    }
    return write(relative, out.toByteArray(), T0.plusSeconds(seconds));
  }

  static byte[] gzip(byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The name {@code file} has in marks and origins. */
  static String markOf(Path file) {
    return file.toAbsolutePath().normalize().toString();
  }

  /** The inode change time of {@code file}. */
  static Instant changeTimeOf(Path file) {
    try {
      return ((FileTime) Files.getAttribute(file, "unix:ctime")).toInstant();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A source with {@code oversize} and {@code rowKey}, as the application would bind them. */
  FileDumpSource source(
      Decoder decoder, OversizePolicy oversize, Optional<String> rowKey, String... globs) {
    return new FileDumpSource(
        new FileDumpSpec(List.of(globs), base, decoder), CLOCK, oversize, rowKey.map(RowKey::at));
  }

  /**
   * Waits (by touching {@code file} again, never by sleeping) until its change time is after every
   * file written before, so files are read in the order the test wrote them.
   */
  private void afterEveryEarlierFile(Path file, Instant modifiedAt) throws IOException {
    Instant deadline = Instant.now().plusSeconds(5);
    while (!changeTimeOf(file).isAfter(lastChange)) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the change time of " + file + " does not move");
      }
      Files.setLastModifiedTime(file, FileTime.from(modifiedAt));
    }
    lastChange = changeTimeOf(file);
  }

  FileDumpSource source(Decoder decoder, String... globs) {
    return new FileDumpSource(new FileDumpSpec(List.of(globs), base, decoder), CLOCK);
  }

  /** Reads every file {@code globs} match with the AUTO decoder and no checkpoint. */
  RecordingSink readAll(String... globs) throws SourceException, InterruptedException {
    return read(source(Decoder.AUTO, globs), Optional.empty());
  }

  static RecordingSink read(FileDumpSource source, Optional<Mark> checkpoint)
      throws SourceException, InterruptedException {
    RecordingSink sink = new RecordingSink();
    source.read(checkpoint, sink, new Cancellation());
    return sink;
  }
}
