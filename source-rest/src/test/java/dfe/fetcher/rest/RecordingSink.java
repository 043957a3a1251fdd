package dfe.fetcher.rest;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A sink that records every call in order, as the tests state the exact sequence expected. */
class RecordingSink implements RowSink {

  sealed interface Event permits Begin, Record, End, Abort, Advance, Landed, Sent {}

  record Begin() implements Event {}

  record Record(String json, String origin) implements Event {}

  record End() implements Event {}

  record Abort(String reason) implements Event {}

  record Advance(Mark mark) implements Event {}

  /** {@link #awaitLanded} returned. */
  record Landed() implements Event {}

  /**
   * A request a test's server saw, noted by the server's answer before it answers, so it stands in
   * order among the source's calls.
   */
  record Sent(String word) implements Event {}

  /** Written by the source's thread and by a server's answer (while the source waits for it). */
  final List<Event> events = Collections.synchronizedList(new ArrayList<>());

  private long rows;
  private RuntimeException landingFails;

  /** Makes {@link #awaitLanded} throw {@code failure}, as a driver whose transport failed. */
  RecordingSink failingToLand(RuntimeException failure) {
    this.landingFails = failure;
    return this;
  }

  /** Notes a request a server saw, as {@code word} in {@link #shape}. */
  void sent(String word) {
    events.add(new Sent(word));
  }

  @Override
  public void beginPart(OptionalLong total) {
    events.add(new Begin());
  }

  @Override
  public void row(Row row) {
    rows++;
    events.add(new Record(new String(row.record().bytes(), StandardCharsets.UTF_8), row.origin()));
  }

  @Override
  public void awaitLanded() {
    if (landingFails != null) {
      throw landingFails;
    }
    events.add(new Landed());
  }

  @Override
  public void endPart(Optional<Mark> position) {
    events.add(new End());
  }

  @Override
  public void abortPart(String reason) {
    events.add(new Abort(reason));
  }

  @Override
  public void advance(Mark mark) {
    events.add(new Advance(mark));
  }

  long rowCount() {
    return rows;
  }

  List<String> records() {
    return List.copyOf(events).stream()
        .filter(Record.class::isInstance)
        .map(event -> ((Record) event).json())
        .toList();
  }

  /** The events as short words: begin, row, end, abort, advance, landed, or what was sent. */
  List<String> shape() {
    List<String> words = new ArrayList<>();
    for (Event event : List.copyOf(events)) {
      words.add(
          event instanceof Sent sent
              ? sent.word()
              : switch (event.getClass().getSimpleName()) {
                case "Begin" -> "begin";
                case "Record" -> "row";
                case "End" -> "end";
                case "Abort" -> "abort";
                case "Landed" -> "landed";
                default -> "advance";
              });
    }
    return words;
  }

  Optional<String> abortReason() {
    return events.stream()
        .filter(Abort.class::isInstance)
        .map(event -> ((Abort) event).reason())
        .findFirst();
  }

  /** The last mark advanced to, as a driver would commit it. */
  Optional<Mark> checkpoint() {
    Mark last = null;
    for (Event event : events) {
      if (event instanceof Advance advance) {
        last = advance.mark();
      }
    }
    return Optional.ofNullable(last);
  }
}
