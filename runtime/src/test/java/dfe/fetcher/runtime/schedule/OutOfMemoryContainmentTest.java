package dfe.fetcher.runtime.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.tick.BatchLimits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.ProcessHalt;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.runtime.transport.FileTransport;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error of the JVM in one unit's tick: an out-of-memory error is that unit's failure, counted
 * and retried while the connection's other units and later ticks run; one that cannot be contained
 * ends the process, naming the unit.
 */
class OutOfMemoryContainmentTest {

  @TempDir Path directory;
  private final FetcherMetrics metrics = new FetcherMetrics();
  private final List<String> halts = new CopyOnWriteArrayList<>();

  @Test
  void onceAnOutOfMemoryUnitFailsNamedAndTheConnectionsOtherUnitsStillRun() throws Exception {
    Throwing exhausted = new Throwing(() -> new OutOfMemoryError("Java heap space"));
    Fine after = new Fine();
    ConnectionJob job =
        new ConnectionJob(
            "c0",
            Duration.ofMinutes(1),
            List.of(unit("c0", "exhausted", exhausted), unit("c0", "after", after)));

    Map<String, TickOutcome> outcomes;
    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      outcomes = scheduler.runOnce(List.of(job));
    }

    assertThat(outcomes.get("c0.exhausted"))
        .isInstanceOfSatisfying(
            TickOutcome.Failed.class,
            failed -> assertThat(failed.reason()).startsWith("out of memory (Java heap space)"));
    assertThat(outcomes.get("c0.after")).isInstanceOf(TickOutcome.Succeeded.class);
    assertThat(after.reads.get()).isEqualTo(1);
    assertThat(metrics.counterValue(MetricNames.TICK_FAILURES, "c0.exhausted")).isEqualTo(1);
    assertThat(halts).isEmpty();
  }

  @Test
  void onTheScheduleAUnitOutOfMemoryIsRetriedOnItsIntervalAndItsNeighbourKeepsRunning()
      throws Exception {
    Throwing exhausted = new Throwing(() -> new OutOfMemoryError("Java heap space"));
    Fine after = new Fine();
    ConnectionJob job =
        new ConnectionJob(
            "c0",
            Duration.ofMillis(20),
            List.of(unit("c0", "exhausted", exhausted), unit("c0", "after", after)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> after.reads.get() >= 3);
      stopWithin(scheduler);
    }

    assertThat(exhausted.reads.get()).isGreaterThanOrEqualTo(3);
    assertThat(metrics.counterValue(MetricNames.TICK_FAILURES, "c0.exhausted"))
        .isGreaterThanOrEqualTo(3);
    assertThat(halts).isEmpty();
  }

  @Test
  void anErrorOfTheJvmThatCannotBeContainedEndsTheProcessNamingTheUnit() throws Exception {
    Throwing broken = new Throwing(() -> new InternalError("broken (test)"));
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofMillis(20), List.of(unit("c0", "broken", broken)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> !halts.isEmpty());
      stopWithin(scheduler);
    }

    assertThat(halts.get(0)).isEqualTo("unit c0.broken: java.lang.InternalError: broken (test)");
  }

  /**
   * Stops {@code scheduler}, waiting for the ticks still running: {@code close} alone does not, and
   * they write into the test's directory.
   */
  private static void stopWithin(Scheduler scheduler) throws InterruptedException {
    assertThat(scheduler.stop()).isTrue();
  }

  private UnitRunner runner() {
    ProcessHalt recording = (where, error) -> halts.add(where + ": " + error);
    return new UnitRunner(
        new TickContext(
            new FileTransport(directory.resolve("landing")),
            Optional.empty(),
            OversizePolicy.DEFAULT,
            BatchLimits.DEFAULT,
            new FileCursorStore(directory.resolve("state"), Clock.systemUTC()),
            metrics,
            Clock.systemUTC(),
            new UuidV7Generator(),
            () -> false),
        recording);
  }

  private static BoundUnit unit(String connection, String unit, RowSource source) {
    return new BoundUnit(
        new UnitSpec(connection, unit, Shape.DUMP, Optional.empty()),
        connection + "-" + unit + "_land",
        connection + "-" + unit,
        source,
        "test." + connection + "." + unit,
        () -> RowFilterStage.KEEP_ALL,
        Optional.of(Mark.Kind.FILE));
  }

  /** Throws a fresh error on every read (a real exhaustion is not needed to test containment). */
  private static final class Throwing implements RowSource {
    final AtomicInteger reads = new AtomicInteger();
    private final Supplier<Error> error;

    Throwing(Supplier<Error> error) {
      this.error = error;
    }

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws InterruptedException {
      reads.incrementAndGet();
      sink.beginPart(OptionalLong.empty());
      throw error.get();
    }
  }

  private static final class Fine implements RowSource {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws InterruptedException {
      int read = reads.incrementAndGet();
      sink.beginPart(OptionalLong.empty());
      sink.endPart(Optional.of(new FileMark(Instant.ofEpochSecond(read), "fine")));
    }
  }
}
