package dfe.fetcher.benchmarks;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes one shuffled snapshot as NDJSON, one frame per line, for timing {@code dfe-fetcher
 * snapshots verify} on a file. The default of {@value #DEFAULT_ROWS} rows makes, with begin and
 * end, exactly 1,000,000 frames; the output is the same bytes on every run.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dfe.fetcher.benchmarks.GenerateSnapshotFile OUT.ndjson
 * [rows]}
 */
public final class GenerateSnapshotFile {

  static final int DEFAULT_ROWS = 999_998;

  private GenerateSnapshotFile() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println(
          "usage: java -cp benchmarks.jar "
              + GenerateSnapshotFile.class.getName()
              + " OUT.ndjson [rows, default "
              + DEFAULT_ROWS
              + "]");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_ROWS;

    ShuffledSnapshot snapshot = ShuffledSnapshot.generate(rows);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    long bytes = 0;
    try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
      for (byte[] line : snapshot.lines()) {
        file.write(line);
        file.write('\n');
        bytes += line.length + 1;
      }
    }
    System.out.printf(
        Locale.ROOT,
        "wrote %s: snapshot %s, %,d rows, %,d frames, %,d bytes%n",
        out,
        snapshot.snapshotId(),
        rows,
        snapshot.frameCount(),
        bytes);
  }
}
