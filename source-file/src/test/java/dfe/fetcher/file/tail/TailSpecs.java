package dfe.fetcher.file.tail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Tail settings for tests: the defaults, with one thing changed at a time. */
final class TailSpecs {

  private List<String> paths;
  private List<String> exclude = List.of();
  private final Path base;
  private ReadFrom readFrom = ReadFrom.BEGINNING;
  private TailDecoder decoder = TailDecoder.LINES;
  private int maxLineBytes = FileTailSpec.DEFAULT_MAX_LINE_BYTES;
  private Optional<MultilineSpec> multiline = Optional.empty();
  private FingerprintSpec fingerprint = FingerprintSpec.DEFAULT;
  private Duration rotateWait = Duration.ofSeconds(10);
  private Optional<Duration> ignoreOlder = Optional.empty();
  private Duration globInterval = Duration.ZERO;
  private int maxOpenFiles = FileTailSpec.DEFAULT_MAX_OPEN_FILES;
  private Optional<Duration> partialLineTimeout = Optional.empty();

  private TailSpecs(Path base, String... paths) {
    this.base = base;
    this.paths = List.of(paths).stream().map(p -> base.resolve(p).toString()).toList();
  }

  /** {@code lines}, from the beginning, the directory's globs walked on every read. */
  static TailSpecs in(Path base, String... paths) {
    return new TailSpecs(base, paths);
  }

  TailSpecs exclude(String... globs) {
    exclude = List.of(globs);
    return this;
  }

  TailSpecs readFrom(ReadFrom value) {
    readFrom = value;
    return this;
  }

  TailSpecs decoder(TailDecoder value) {
    decoder = value;
    return this;
  }

  TailSpecs maxLineBytes(int value) {
    maxLineBytes = value;
    return this;
  }

  TailSpecs multiline(MultilineSpec value) {
    multiline = Optional.of(value);
    return this;
  }

  TailSpecs fingerprint(FingerprintSpec value) {
    fingerprint = value;
    return this;
  }

  TailSpecs rotateWait(Duration value) {
    rotateWait = value;
    return this;
  }

  TailSpecs ignoreOlder(Duration value) {
    ignoreOlder = Optional.of(value);
    return this;
  }

  TailSpecs globInterval(Duration value) {
    globInterval = value;
    return this;
  }

  TailSpecs maxOpenFiles(int value) {
    maxOpenFiles = value;
    return this;
  }

  TailSpecs partialLineTimeout(Duration value) {
    partialLineTimeout = Optional.of(value);
    return this;
  }

  FileTailSpec spec() {
    return new FileTailSpec(
        paths,
        exclude,
        base,
        readFrom,
        decoder,
        maxLineBytes,
        multiline,
        fingerprint,
        rotateWait,
        ignoreOlder,
        globInterval,
        maxOpenFiles,
        partialLineTimeout);
  }

  TailHarness harness() {
    return new TailHarness(spec());
  }
}
