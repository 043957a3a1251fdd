package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sink that records what a source said, in order (rows' JSON kept unless told to count only);
 * thread-safe, so a test may watch it from another thread.
 */
class EventSink implements RowSink {

  final List<String> events = new CopyOnWriteArrayList<>();
  final List<String> records = new CopyOnWriteArrayList<>();
  final List<Optional<Mark>> marks = new CopyOnWriteArrayList<>();
  final AtomicLong rows = new AtomicLong();
  volatile OptionalLong total = OptionalLong.empty();
  private final boolean keep;

  EventSink() {
    this(true);
  }

  EventSink(boolean keep) {
    this.keep = keep;
  }

  @Override
  public void beginPart(OptionalLong total) {
    this.total = total;
    events.add("begin");
  }

  @Override
  public void row(Row row) throws InterruptedException {
    rows.incrementAndGet();
    if (keep) {
      records.add(new String(row.record().bytes(), StandardCharsets.UTF_8));
      marks.add(row.mark());
    }
  }

  @Override
  public void endPart(Optional<Mark> position) {
    events.add("end");
  }

  @Override
  public void abortPart(String reason) {
    events.add("abort " + reason);
  }

  @Override
  public void advance(Mark mark) {
    events.add("advance");
  }

  Optional<Mark> lastMark() {
    return marks.isEmpty() ? Optional.empty() : marks.get(marks.size() - 1);
  }
}
