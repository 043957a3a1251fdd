package dfe.fetcher.file.dump;

import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.SourceException;
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
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files a dump unit's globs match, and what the walk passed over, each place reported once
 * through {@link RowSink#skipped} as the walk goes. See {@link FileDumpSource} for which links are
 * followed.
 */
final class FileListing {
  private final RowSink sink;
  private final Map<String, ListedFile> files = new LinkedHashMap<>();
  private final Set<String> reported = new HashSet<>();

  private final boolean followSymlinks;

  FileListing(RowSink sink, boolean followSymlinks) {
    this.sink = sink;
    this.followSymlinks = followSymlinks;
  }

  /** The names of every file listed so far. */
  Set<String> names() {
    return files.keySet();
  }

  List<ListedFile> inChangeOrder() {
    List<ListedFile> ordered = new ArrayList<>(files.values());
    ordered.sort(
        Comparator.comparing((ListedFile file) -> file.seen().changedAt())
            .thenComparing(ListedFile::name));
    return ordered;
  }

  void skipped(Path place, String reason) {
    String name = place.toAbsolutePath().normalize().toString();
    if (reported.add(name)) {
      sink.skipped(name, reason);
    }
  }

  void walk(PathGlob glob) throws SourceException {
    Path root = glob.walkRoot();
    try {
      Files.walkFileTree(
          root,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          glob.maxDepth(),
          new SimpleFileVisitor<>() {
            private Path realRoot;

            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
                throws IOException {
              if (dir.equals(root)) {
                try {
                  realRoot = root.toRealPath();
                } catch (NoSuchFileException e) {
                  return FileVisitResult.SKIP_SUBTREE; // removed as the walk began: no files
                }
                return FileVisitResult.CONTINUE;
              }
              if (leavesRoot(dir)) {
                skipped(dir, "outside_base");
                return FileVisitResult.SKIP_SUBTREE;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              // A directory at the deepest level the glob reaches is no file of it.
              if (attributes.isDirectory() || !glob.matches(file)) {
                return FileVisitResult.CONTINUE;
              }
              if (!attributes.isRegularFile()) {
                skipped(file, "not_regular");
              } else if (!file.equals(root) && leavesRoot(file)) { // a named file is meant
                skipped(file, "outside_base");
              } else {
                try {
                  ListedFile listed = ListedFile.stat(file);
                  files.putIfAbsent(listed.name(), listed);
                } catch (NoSuchFileException e) {
                  skipped(file, "vanished");
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure)
                throws IOException {
              if (failure instanceof FileSystemLoopException) {
                // A link loop leads back to files that are reached the direct way.
                return FileVisitResult.CONTINUE;
              }
              if (file.equals(root)) {
                if (failure instanceof NoSuchFileException) {
                  return FileVisitResult.CONTINUE; // no files yet
                }
                throw failure; // nothing of the unit can be listed: the operator must know
              }
              skipped(file, failure instanceof NoSuchFileException ? "vanished" : "unreadable");
              return FileVisitResult.CONTINUE;
            }

            /** A link whose target lies outside the walked directory; a vanished link does too. */
            private boolean leavesRoot(Path entry) throws IOException {
              if (followSymlinks || !Files.isSymbolicLink(entry)) {
                return false;
              }
              try {
                return !entry.toRealPath().startsWith(realRoot);
              } catch (NoSuchFileException e) {
                return true;
              }
            }
          });
    } catch (IOException e) {
      throw new SourceException(
          "cannot list the files of \""
              + glob.glob()
              + "\" under "
              + root
              + ": "
              + FileDumpSource.reasonOf(e),
          e);
    }
  }
}
