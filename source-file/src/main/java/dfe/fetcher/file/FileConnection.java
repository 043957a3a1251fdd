package dfe.fetcher.file;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.file.dump.FileDumpSource;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bound {@code sources.file} connection. Its units share nothing, so opening it acquires nothing
 * and closing it releases nothing; each enabled unit's source is a {@link FileDumpSource}.
 *
 * @param fileUnits the connection's units, in configuration order, with their file settings
 */
public record FileConnection(List<FileUnit> fileUnits) implements SourceConnection {

  public FileConnection {
    fileUnits = List.copyOf(fileUnits);
  }

  /** The file units as the application sees them: every one a dump committing file marks. */
  @Override
  public List<SourceUnit> units() {
    return fileUnits.stream().map(FileConnection::describe).toList();
  }

  private static SourceUnit describe(FileUnit unit) {
    List<String> details = new ArrayList<>();
    details.add("decoder " + unit.dump().decoder().configName());
    unit.dump().paths().forEach(path -> details.add("path " + path));
    return new SourceUnit(
        unit.unit(),
        unit.enabled(),
        Shape.DUMP,
        unit.rowKey(),
        Optional.of(Mark.Kind.FILE),
        details,
        unit.origin(),
        unit.path());
  }

  /** Each enabled unit's globs that match no file right now. */
  @Override
  public List<String> hints() {
    List<String> hints = new ArrayList<>();
    for (FileUnit unit : fileUnits) {
      if (!unit.enabled()) {
        continue;
      }
      for (String glob : unit.dump().globsMatchingNoFile()) {
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
    for (FileUnit unit : fileUnits) {
      if (unit.enabled()) {
        sources.put(
            unit.unit(),
            new FileDumpSource(
                unit.dump(), runtime.clock(), runtime.oversize(), unit.rowKey().map(RowKey::at)));
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
        // Files are opened and closed by each read.
      }
    };
  }
}
