package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A sink that records every call in order; a hook may run before each row is taken. */
class RecordingSink implements RowSink {

  sealed interface Event permits Begin, Record, End, Abort, Advance {}

  record Begin(OptionalLong total) implements Event {}

  record Record(String json, Optional<Mark> mark) implements Event {}

  record End(Optional<Mark> mark) implements Event {}

  record Abort(String reason) implements Event {}

  record Advance(Mark mark) implements Event {}

  /** Runs before the row numbered {@code rowNumber} (from 1) is recorded. */
  @FunctionalInterface
  interface RowHook {
    void before(int rowNumber) throws InterruptedException;
  }

  final List<Event> events = new ArrayList<>();
  private final RowHook hook;
  private int rows;

  RecordingSink() {
    this(number -> {});
  }

  RecordingSink(RowHook hook) {
    this.hook = hook;
  }

  @Override
  public void beginPart(OptionalLong total) {
    events.add(new Begin(total));
  }

  @Override
  public void row(Row row) throws InterruptedException {
    hook.before(++rows);
    events.add(new Record(new String(row.record().bytes(), StandardCharsets.UTF_8), row.mark()));
  }

  @Override
  public void endPart(Optional<Mark> mark) {
    events.add(new End(mark));
  }

  @Override
  public void abortPart(String reason) {
    events.add(new Abort(reason));
  }

  @Override
  public void advance(Mark mark) {
    events.add(new Advance(mark));
  }

  List<String> records() {
    return events.stream()
        .filter(Record.class::isInstance)
        .map(event -> ((Record) event).json())
        .toList();
  }

  /** The mark of the last row, as a tail's checkpoint would be. */
  Optional<Mark> lastMark() {
    Optional<Mark> last = Optional.empty();
    for (Event event : events) {
      if (event instanceof Record record && record.mark().isPresent()) {
        last = record.mark();
      }
    }
    return last;
  }

  static KeysetMark keyset(Optional<Mark> mark) {
    return (KeysetMark) mark.orElseThrow();
  }
}
