package dfe.fetcher.file;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.ReadAhead;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.file.dump.FileDumpSource;
import dfe.fetcher.file.tail.FileTailSource;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A bound {@code sources.file} connection. Its units share nothing. A dump unit's source is a
 * {@link FileDumpSource}, which opens and closes its files on each read; a tail unit's is a {@link
 * FileTailSource}, which holds its files open between reads (so a rotated file is read to its end):
 * closing the connection closes them.
 *
 * @param id the connection's id, for the {@code source} label of what its tail units count
 * @param fileUnits the connection's units, in configuration order, with their file settings
 */
public record FileConnection(String id, List<FileUnit> fileUnits) implements SourceConnection {

  /**
   * A unit's read-ahead (a dump's and a tail's alike): its files are read, split and checked on a
   * thread of their own, ahead of the envelope, the enrichment and the transport's send on the
   * tick's thread; at most this many calls of its source wait for the tick's thread.
   */
  static final int READ_AHEAD_CALLS = 2048;

  /** ... and at most this many bytes of rows. */
  static final long READ_AHEAD_BYTES = 4L << 20;

  public FileConnection {
    Objects.requireNonNull(id, "id");
    fileUnits = List.copyOf(fileUnits);
  }

  /** A connection without an id, for code that builds a configuration itself. */
  public FileConnection(List<FileUnit> fileUnits) {
    this("file", fileUnits);
  }

  /**
   * The file units as the application sees them: a dump commits file marks, a tail file tail marks.
   */
  @Override
  public List<SourceUnit> units() {
    return fileUnits.stream().map(FileConnection::describe).toList();
  }

  private static SourceUnit describe(FileUnit unit) {
    List<String> details = new ArrayList<>();
    if (unit.tail().isPresent()) {
      FileTailSpec tail = unit.tail().get();
      details.add("tail, decoder " + tail.decoder().configName());
      tail.paths().forEach(path -> details.add("path " + path));
      tail.exclude().forEach(path -> details.add("exclude " + path));
    } else {
      details.add("decoder " + unit.dump().get().decoder().configName());
      unit.dump().get().paths().forEach(path -> details.add("path " + path));
    }
    return new SourceUnit(
        unit.unit(),
        unit.enabled(),
        unit.isTail() ? Shape.TAIL : Shape.DUMP,
        unit.rowKey(),
        Optional.of(unit.isTail() ? Mark.Kind.FILE_TAIL : Mark.Kind.FILE),
        details,
        unit.origin(),
        unit.path());
  }

  /** Each enabled unit's globs that match no file right now. */
  @Override
  public List<String> hints() {
    List<String> hints = new ArrayList<>();
    for (FileUnit unit : fileUnits) {
      if (!unit.enabled() || unit.dump().isEmpty()) {
        continue;
      }
      for (String glob : unit.dump().get().globsMatchingNoFile()) {
        hints.add(
            unit.origin().render()
                + ": "
                + unit.path()
                + ": dump.paths \""
                + glob
                + "\" matches no file right now");
      }
    }
    return hints;
  }

  @Override
  public OpenConnection open(SourceRuntime runtime) {
    Map<String, RowSource> sources = new LinkedHashMap<>();
    List<FileTailSource> tails = new ArrayList<>();
    for (FileUnit unit : fileUnits) {
      if (!unit.enabled()) {
        continue;
      }
      if (unit.tail().isPresent()) {
        FileTailSource tail =
            new FileTailSource(
                unit.tail().get(), runtime.clock(), runtime.metrics(), id + "." + unit.unit());
        tails.add(tail);
        sources.put(
            unit.unit(),
            new ReadAhead(
                tail,
                "dfe-read-ahead-" + id + "." + unit.unit(),
                READ_AHEAD_CALLS,
                READ_AHEAD_BYTES));
      } else {
        sources.put(
            unit.unit(),
            new ReadAhead(
                new FileDumpSource(
                    unit.dump().get(),
                    runtime.clock(),
                    runtime.oversize(),
                    unit.rowKey().map(RowKey::at)),
                "dfe-read-ahead-" + id + "." + unit.unit(),
                READ_AHEAD_CALLS,
                READ_AHEAD_BYTES));
      }
    }
    return new OpenConnection() {
      @Override
      public RowSource source(String unit) {
        RowSource source = sources.get(unit);
        if (source == null) {
          throw new IllegalArgumentException("no enabled file unit named " + unit);
        }
        return source;
      }

      @Override
      public void close() {
        // A dump's files are opened and closed by each read; a tail holds its files open.
        tails.forEach(FileTailSource::close);
      }
    };
  }
}
