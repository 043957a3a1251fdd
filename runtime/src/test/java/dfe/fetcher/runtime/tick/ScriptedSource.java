package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A source that plays back parts given by the test, skipping parts at or before the checkpoint like
 * a file dump does, and failing where the test says. For driver behaviour that does not depend on a
 * real source; the file source has its own end-to-end tests.
 */
final class ScriptedSource implements RowSource {

  /** One part: its records, the mark it ends at, and the row index before which it fails. */
  record Part(List<String> records, FileMark mark, int failBefore) {}

  private final List<Part> parts = new ArrayList<>();
  private final boolean tail;
  int reads;

  private ScriptedSource(boolean tail) {
    this.tail = tail;
  }

  static ScriptedSource dump() {
    return new ScriptedSource(false);
  }

  static ScriptedSource tail() {
    return new ScriptedSource(true);
  }

  static FileMark mark(int n) {
    return new FileMark(Instant.ofEpochSecond(1_000 + n), "part-" + n);
  }

  ScriptedSource part(int n, String... records) {
    parts.add(new Part(List.of(records), mark(n), -1));
    return this;
  }

  ScriptedSource failingPart(int n, int failBefore, String... records) {
    parts.add(new Part(List.of(records), mark(n), failBefore));
    return this;
  }

  @Override
  public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
      throws SourceException, InterruptedException {
    reads++;
    for (Part part : parts) {
      if (checkpoint.isPresent() && !part.mark().isAfter((FileMark) checkpoint.get())) {
        continue;
      }
      if (!tail) {
        sink.beginPart(OptionalLong.empty());
      }
      for (int i = 0; i < part.records().size(); i++) {
        if (i == part.failBefore()) {
          throw new SourceException(part.mark().path() + ":" + (i + 1) + ": not valid JSON");
        }
        RawRecord record = RawRecord.of(part.records().get(i));
        String origin = part.mark().path() + ":" + (i + 1);
        sink.row(
            tail
                ? new Row(record, 1L, Optional.of(part.mark()), origin)
                : Row.ofDump(record, 1L, origin));
      }
      if (!tail) {
        sink.endPart(Optional.of(part.mark()));
      }
    }
  }
}
