package dfe.fetcher.file.dump;

import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A sink that records every call, in order, so tests can state the exact sequence expected. */
class RecordingSink implements RowSink {

  sealed interface Event permits Begin, Record, NotKept, End, Abort, Advance, SkipPart, Skipped {}

  record Begin(OptionalLong total) implements Event {}

  record Record(String json, String origin, long fetchedAtMillis) implements Event {}

  /** A record the source measured but did not keep: its length, key and DLQ copy. */
  record NotKept(long bytes, Optional<String> rowKey, String dlqCopy, String origin)
      implements Event {}

  /** A part's end, with the path its position was reached at. */
  record End(Optional<String> file) implements Event {}

  record Abort(String reason) implements Event {}

  record Advance(Mark mark) implements Event {}

  record SkipPart(String place, String reason) implements Event {}

  record Skipped(String place, String reason) implements Event {}

  final List<Event> events = new ArrayList<>();

  /** The input the source announced, and what it said it read of it. */
  long inputAhead;

  long inputRead;
  private Optional<FileMark> lastPosition = Optional.empty();

  static Begin begin() {
    return new Begin(OptionalLong.empty());
  }

  static End end(String file) {
    return new End(Optional.of(file));
  }

  @Override
  public void inputAhead(long bytes) {
    inputAhead += bytes;
  }

  @Override
  public void inputRead(long bytes) {
    inputRead += bytes;
  }

  @Override
  public void beginPart(OptionalLong total) throws InterruptedException {
    events.add(new Begin(total));
  }

  @Override
  public void row(Row row) throws InterruptedException {
    if (row.content() instanceof Row.NotKept notKept) {
      events.add(
          new NotKept(
              notKept.bytes(),
              notKept.rowKey(),
              new String(notKept.dlqCopy(), StandardCharsets.UTF_8),
              row.origin()));
      return;
    }
    events.add(
        new Record(
            new String(row.record().bytes(), StandardCharsets.UTF_8),
            row.origin(),
            row.fetchedAtMillis()));
  }

  @Override
  public void endPart(Optional<Mark> mark) throws InterruptedException {
    mark.ifPresent(position -> lastPosition = Optional.of((FileMark) position));
    events.add(new End(mark.map(position -> ((FileMark) position).path())));
  }

  @Override
  public void abortPart(String reason) {
    events.add(new Abort(reason));
  }

  @Override
  public void advance(Mark mark) {
    lastPosition = Optional.of((FileMark) mark);
    events.add(new Advance(mark));
  }

  @Override
  public void skipPart(String place, String reason) {
    events.add(new SkipPart(place, reason));
  }

  @Override
  public void skipped(String place, String reason) {
    events.add(new Skipped(place, reason));
  }

  /** The position to commit after this read, as a driver would: the last one handed over. */
  Optional<Mark> checkpoint() {
    return lastPosition.map(Mark.class::cast);
  }

  /** The places skipped while listing, with their reasons, as "place reason". */
  List<String> skips() {
    return events.stream()
        .filter(Skipped.class::isInstance)
        .map(event -> ((Skipped) event).place() + " " + ((Skipped) event).reason())
        .toList();
  }

  /** The records' JSON, in the order they arrived. */
  List<String> records() {
    return events.stream()
        .filter(Record.class::isInstance)
        .map(event -> ((Record) event).json())
        .toList();
  }

  /** The records' origins, in the order they arrived. */
  List<String> origins() {
    return events.stream()
        .filter(Record.class::isInstance)
        .map(event -> ((Record) event).origin())
        .toList();
  }

  /** The files whose parts ended, in order. */
  List<String> endMarks() {
    return events.stream()
        .filter(End.class::isInstance)
        .map(event -> ((End) event).file().orElseThrow())
        .toList();
  }
}
