package dfe.fetcher.file.tail;

import dfe.fetcher.file.dump.PathGlob;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The regular files a tail unit's globs match now, less those its {@code exclude} globs match. A
 * glob's directory that does not exist holds no files yet; one that cannot be listed is reported
 * (to the caller, which reports it once) and the other globs go on.
 */
final class TailListing {

  private final List<PathGlob> globs;
  private final List<PathGlob> excludedPaths = new ArrayList<>();
  private final List<PathGlob> excludedNames = new ArrayList<>();

  TailListing(FileTailSpec spec) {
    this.globs = spec.globs();
    for (String exclude : spec.exclude()) {
      if (exclude.contains("/")) {
        excludedPaths.add(PathGlob.compile(exclude, spec.baseDirectory()));
      } else {
        excludedNames.add(PathGlob.compile(exclude, Path.of("/")));
      }
    }
  }

  /**
   * The matching files' absolute paths, in glob order then walk order.
   *
   * @param unlistable told each directory that cannot be listed, with the reason
   */
  Set<Path> list(BiConsumer<Path, String> unlistable) {
    Set<Path> found = new LinkedHashSet<>();
    for (PathGlob glob : globs) {
      walk(glob, found, unlistable);
    }
    return found;
  }

  /**
   * The directories in which a change to a matching file shows: each glob's walk root, or for a
   * glob that names one file, that file's directory.
   */
  Set<Path> watchRoots() {
    Set<Path> roots = new LinkedHashSet<>();
    for (PathGlob glob : globs) {
      Path root = glob.walkRoot();
      roots.add(glob.maxDepth() == 0 && root.getParent() != null ? root.getParent() : root);
    }
    return roots;
  }

  /** Whether {@code file} is one the globs match and the {@code exclude} globs do not. */
  boolean matches(Path file) {
    for (PathGlob glob : globs) {
      boolean match =
          glob.maxDepth() == 0
              ? file.equals(glob.walkRoot())
              : file.startsWith(glob.walkRoot()) && glob.matches(file);
      if (match) {
        return !excluded(file);
      }
    }
    return false;
  }

  /** Whether {@code file} is one the {@code exclude} globs name. */
  boolean excluded(Path file) {
    for (PathGlob glob : excludedPaths) {
      if (file.startsWith(glob.walkRoot()) && glob.matches(file)) {
        return true;
      }
    }
    Path name = file.getFileName();
    for (PathGlob glob : excludedNames) {
      if (name != null && glob.matches(Path.of("/").resolve(name.toString()))) {
        return true;
      }
    }
    return false;
  }

  private void walk(PathGlob glob, Set<Path> found, BiConsumer<Path, String> unlistable) {
    Path root = glob.walkRoot();
    try {
      Files.walkFileTree(
          root,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          glob.maxDepth(),
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile() && glob.matches(file) && !excluded(file)) {
                found.add(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure) {
              if (!(failure instanceof NoSuchFileException)
                  && !(failure instanceof FileSystemLoopException)) {
                unlistable.accept(file, describe(failure));
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      unlistable.accept(root, describe(e));
    }
  }

  static String describe(IOException e) {
    String kind = e.getClass().getSimpleName().replace("Exception", "");
    return e.getMessage() == null ? kind : kind + " (" + e.getMessage() + ")";
  }
}
