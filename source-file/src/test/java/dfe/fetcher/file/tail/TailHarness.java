package dfe.fetcher.file.tail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Drives a {@link FileTailSource} as the driver would when every row is acknowledged at once: the
 * checkpoint of each read is the last mark the read before it gave (on a row or by advance).
 */
final class TailHarness {

  static final ObjectMapper JSON = new ObjectMapper();

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    private Instant now = Instant.parse("2026-05-01T12:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }
  }

  /** A bad line the source passed to the sink. */
  record BadLine(String place, String reason, String content) {}

  /** Counts what the source reports, by name and labels. */
  static final class RecordedMetrics implements SourceMetrics {
    final Map<String, Double> values = new ConcurrentHashMap<>();

    private static String key(String name, Map<String, String> labels) {
      return labels.isEmpty() ? name : name + labels;
    }

    @Override
    public void increment(String name, String source, Map<String, String> labels) {
      values.merge(key(name, labels), 1.0, Double::sum);
    }

    @Override
    public void observeSeconds(String name, String source, double seconds) {}

    @Override
    public void add(String name, String source, Map<String, String> labels, long amount) {
      values.merge(key(name, labels), (double) amount, Double::sum);
    }

    @Override
    public void set(String name, String source, Map<String, String> labels, double value) {
      values.put(key(name, labels), value);
    }

    @Override
    public void remove(String name, String source, Map<String, String> labels) {
      values.remove(key(name, labels));
    }

    double get(String name, Map<String, String> labels) {
      return values.getOrDefault(key(name, labels), 0.0);
    }
  }

  final TestClock clock = new TestClock();
  final RecordedMetrics metrics = new RecordedMetrics();
  private FileTailSpec spec;
  private FileTailSource source;
  Optional<Mark> checkpoint = Optional.empty();

  /** Every row landed so far, as parsed JSON, in order. */
  final List<JsonNode> rows = new ArrayList<>();

  /** Every row landed so far as the source handed it on, parallel to {@link #rows}. */
  final List<RawRecord> records = new ArrayList<>();

  /** The mark each row carried (empty for most), parallel to {@link #rows}. */
  final List<Optional<Mark>> rowMarks = new ArrayList<>();

  final List<BadLine> bad = new ArrayList<>();

  /** Run after each row is recorded, while the read goes on: a test writes or moves the clock. */
  Consumer<JsonNode> onRow = row -> {};

  final List<String> skipped = new ArrayList<>();

  TailHarness(FileTailSpec spec) {
    this.spec = spec;
    this.source = new FileTailSource(spec, clock, metrics, "logs.app");
  }

  /** One read from the current checkpoint; the checkpoint then is the last mark it gave. */
  TailHarness read() {
    return read(false);
  }

  /**
   * One read as the driver makes it when the unit's checkpoint exists but cannot be read; the
   * checkpoint then is the last mark it gave.
   */
  TailHarness readAfterLostCheckpoint() {
    return read(true);
  }

  private TailHarness read(boolean lost) {
    RowSink sink =
        new RowSink() {
          @Override
          public void beginPart(OptionalLong total) {
            throw new AssertionError("a tail source began a dump part");
          }

          @Override
          public void row(Row row) {
            try {
              rows.add(JSON.readTree(row.record().bytes()));
              records.add(row.record());
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            rowMarks.add(row.mark());
            row.mark().ifPresent(mark -> checkpoint = Optional.of(mark));
            onRow.accept(rows.get(rows.size() - 1));
          }

          @Override
          public void endPart(Optional<Mark> position) {
            throw new AssertionError("a tail source ended a dump part");
          }

          @Override
          public void abortPart(String reason) {
            throw new AssertionError("a tail source aborted a part: " + reason);
          }

          @Override
          public void badRecord(String place, String reason, byte[] content) {
            bad.add(new BadLine(place, reason, new String(content, StandardCharsets.UTF_8)));
          }

          @Override
          public void skipped(String place, String reason) {
            skipped.add(reason + " " + place);
          }

          @Override
          public void advance(Mark mark) {
            checkpoint = Optional.of(mark);
          }
        };
    try {
      if (lost) {
        source.readAfterLostCheckpoint(sink, new Cancellation());
      } else {
        source.read(checkpoint, sink, new Cancellation());
      }
    } catch (Exception e) {
      throw new AssertionError("the read failed", e);
    }
    return this;
  }

  /**
   * A restart: a new source (no open handles, no caches) that starts from the checkpoint committed.
   */
  TailHarness restart() {
    source.close();
    source = new FileTailSource(spec, clock, metrics, "logs.app");
    return this;
  }

  /** A restart with other settings. */
  TailHarness restart(FileTailSpec changed) {
    spec = changed;
    return restart();
  }

  /** The {@code field} of every row landed, as text, in order. */
  List<String> field(String field) {
    return rows.stream().map(row -> row.path(field).asText()).toList();
  }

  /** The messages ({@code lines} decoder) or {@code /n} values landed, in order. */
  List<String> values() {
    return rows.stream()
        .map(row -> row.has("message") ? row.get("message").asText() : row.path("n").asText())
        .toList();
  }

  FileTailMark mark() {
    return (FileTailMark) checkpoint.orElseThrow();
  }

  /** Asks the source to run {@code wake} when one of its files changes, as the scheduler does. */
  void wakeOn(Runnable wake) {
    source.wakeOn(wake);
  }

  int openFiles() {
    return source.openFileCount();
  }

  void close() {
    source.close();
  }
}
