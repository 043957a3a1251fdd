package dfe.fetcher.file.dump;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code sources.file} dump unit reads: the unit's {@code dump:} settings, bound.
 *
 * <p>Glob syntax ({@code paths}), matched against {@code /}-separated paths: {@code *} any
 * characters within a segment, {@code ?} one character, {@code **} as a whole segment zero or more
 * directories ({@code data/**}{@code /*.ndjson} matches {@code data/x.ndjson} and {@code
 * data/a/b/x.ndjson}), {@code [a-z]} and {@code [!a-z]} sets, {@code {a,b}} alternatives, {@code \}
 * to escape. A glob without glob characters names one file. Only the leading segments without glob
 * characters are walked, so {@code data/**}{@code /*.ndjson} walks {@code data} and nothing else.
 *
 * @param paths the globs; a file matched by several is read once
 * @param baseDirectory what relative globs resolve against: the configuration file's directory
 * @param decoder how files are decoded
 * @param settle how long a file must have gone unchanged (by its change time) before it is taken
 * @param onBadFile what a file that cannot be read or decoded does to the files after it
 * @param followSymlinks whether a symbolic link whose target lies outside its glob's walked
 *     directory is followed
 */
public record FileDumpSpec(
    List<String> paths,
    Path baseDirectory,
    Decoder decoder,
    Duration settle,
    BadFilePolicy onBadFile,
    boolean followSymlinks) {

  /** What a bad file (one that cannot be opened, decompressed or decoded) does. */
  public enum BadFilePolicy {
    /** The read stops at it; it and every later file wait until it is fixed. */
    STOP("stop"),
    /** It is logged, counted and dead-lettered, its snapshot gets no end, later files go on. */
    SKIP("skip");

    private final String configName;

    BadFilePolicy(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /** The defaults: nothing to settle, stop at a bad file, links kept within their directory. */
  public FileDumpSpec(List<String> paths, Path baseDirectory, Decoder decoder) {
    this(paths, baseDirectory, decoder, Duration.ZERO, BadFilePolicy.STOP, false);
  }

  /**
   * @throws IllegalArgumentException when {@code paths} is empty or a glob is malformed; the
   *     message names the glob, for the configuration's error report
   */
  public FileDumpSpec {
    Objects.requireNonNull(paths, "paths");
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    Objects.requireNonNull(decoder, "decoder");
    Objects.requireNonNull(settle, "settle");
    Objects.requireNonNull(onBadFile, "onBadFile");
    if (settle.isNegative()) {
      throw new IllegalArgumentException("settle must not be negative: " + settle);
    }
    paths = List.copyOf(paths);
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("paths is empty: a dump unit needs at least one glob");
    }
    for (String glob : paths) {
      PathGlob.compile(glob, baseDirectory);
    }
  }

  /**
   * What is wrong with {@code glob}, checked by the matcher that runs it; empty when it compiles.
   */
  public static Optional<String> globProblem(String glob, Path baseDirectory) {
    try {
      PathGlob.compile(glob, baseDirectory);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      // The cause says what is wrong without repeating the glob, which the caller names.
      Throwable reason = e.getCause() != null ? e.getCause() : e;
      return Optional.of(reason.getMessage());
    }
  }

  /**
   * Whether the literal glob {@code glob} (one without glob characters) names a directory now: a
   * dump reads files, and a directory's files need a pattern ({@code dir/*.ndjson}).
   */
  public static boolean namesADirectory(String glob, Path baseDirectory) {
    PathGlob compiled = PathGlob.compile(glob, baseDirectory);
    return compiled.maxDepth() == 0 && Files.isDirectory(compiled.walkRoot());
  }

  /**
   * The globs that match no regular file right now, for {@code config-check}'s hints. Walks each
   * glob's directory until its first match, no deeper than the glob reaches; a directory that
   * cannot be walked counts as matching nothing.
   */
  public List<String> globsMatchingNoFile() {
    List<String> unmatched = new ArrayList<>();
    for (PathGlob glob : globs()) {
      if (!matchesAFile(glob)) {
        unmatched.add(glob.glob());
      }
    }
    return unmatched;
  }

  private static boolean matchesAFile(PathGlob glob) {
    boolean[] found = {false};
    try {
      Files.walkFileTree(
          glob.walkRoot(),
          EnumSet.noneOf(FileVisitOption.class),
          glob.maxDepth(),
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if ((attributes.isRegularFile() || attributes.isSymbolicLink())
                  && glob.matches(file)) {
                found[0] = true;
                return FileVisitResult.TERMINATE;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      return false;
    }
    return found[0];
  }

  /** The globs, compiled against {@link #baseDirectory}. */
  List<PathGlob> globs() {
    return paths.stream().map(glob -> PathGlob.compile(glob, baseDirectory)).toList();
  }
}
