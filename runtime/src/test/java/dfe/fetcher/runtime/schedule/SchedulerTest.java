package dfe.fetcher.runtime.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.service.FetcherService;
import dfe.fetcher.runtime.service.FetcherWorkspace;
import dfe.fetcher.runtime.tick.BatchLimits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.runtime.transport.FileTransport;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scheduler: ticks on the interval, and no more fetches at once than allowed. */
class SchedulerTest {

  private static final String HOSTS = "inventory-hosts_land";

  @TempDir Path directory;

  @Test
  void aFileAddedAfterTheFirstRunIsLandedByTheNextTickAndAnIdleTickLandsNothing() throws Exception {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    workspace.write("data/hosts/1.ndjson", FetcherWorkspace.ndjson("{\"id\":1}"));
    Path config =
        workspace.config(
            FetcherWorkspace.HEADER
                + """
                sources:
                  file:
                    inventory:
                      topic: inventory
                      interval_secs: 1
                      units:
                        - unit: hosts
                          dump: {paths: [data/hosts/*.ndjson]}
                """);

    try (FetcherService service =
        FetcherService.create(workspace.load(config), Clock.systemUTC())) {
      service.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> workspace.completeSnapshots(HOSTS) == 1);

      workspace.write("data/hosts/2.ndjson", FetcherWorkspace.ndjson("{\"id\":2}", "{\"id\":3}"));
      await().atMost(Duration.ofSeconds(10)).until(() -> workspace.completeSnapshots(HOSTS) == 2);
      assertThat(workspace.completeSnapshotRows(HOSTS))
          .containsExactly(List.of("{\"id\":1}"), List.of("{\"id\":2}", "{\"id\":3}"));

      List<String> landed = workspace.lines(HOSTS);
      long ticks = ticksEnded(service.metrics(), "inventory.hosts");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> ticksEnded(service.metrics(), "inventory.hosts") >= ticks + 2);
      assertThat(workspace.lines(HOSTS)).isEqualTo(landed);
    }
  }

  @ParameterizedTest(name = "{1} connections, at most {0} at once")
  @CsvSource({"1, 2", "2, 3"})
  void runOnceFetchesNoMoreConnectionsAtOnceThanMaxConcurrentFetches(
      int maxConcurrentFetches, int connections) throws Exception {
    Rendezvous rendezvous = new Rendezvous(connections);

    try (Scheduler scheduler =
        new Scheduler(runner(), maxConcurrentFetches, Duration.ofSeconds(10))) {
      Map<String, TickOutcome> outcomes = scheduler.runOnce(rendezvous.jobs());

      assertThat(outcomes).hasSize(connections);
      assertThat(outcomes.values()).allMatch(outcome -> outcome instanceof TickOutcome.Succeeded);
    }
    assertThat(rendezvous.mostAtOnce.get()).isEqualTo(maxConcurrentFetches);
  }

  @Test
  void theRunningScheduleFetchesNoMoreConnectionsAtOnceThanMaxConcurrentFetches() throws Exception {
    Rendezvous rendezvous = new Rendezvous(3);

    try (Scheduler scheduler = new Scheduler(runner(), 2, Duration.ofSeconds(10))) {
      scheduler.start(rendezvous.jobs());
      await().atMost(Duration.ofSeconds(10)).until(() -> rendezvous.reads.get() >= 3);
      assertThat(scheduler.stop()).isTrue();
    }
    assertThat(rendezvous.mostAtOnce.get()).isEqualTo(2);
  }

  @Test
  void aUnitThatCrashesFailsAloneAndTheOtherUnitsAndConnectionsStillRun() throws Exception {
    Crashing crashing = new Crashing();
    ConnectionJob first =
        new ConnectionJob(
            "c0", Duration.ofHours(1), List.of(unit("c0", "crashes", crashing), fine("c0")));
    ConnectionJob second = new ConnectionJob("c1", Duration.ofHours(1), List.of(fine("c1")));

    Map<String, TickOutcome> outcomes;
    try (Scheduler scheduler = new Scheduler(runner(), 2, Duration.ofSeconds(10))) {
      outcomes = scheduler.runOnce(List.of(first, second));
    }

    assertThat(outcomes.get("c0.crashes"))
        .isEqualTo(
            new TickOutcome.Failed(
                "unexpected failure: java.lang.ExceptionInInitializerError: decoder (test)"));
    assertThat(outcomes.get("c0.fine")).isInstanceOf(TickOutcome.Succeeded.class);
    assertThat(outcomes.get("c1.fine")).isInstanceOf(TickOutcome.Succeeded.class);
  }

  @Test
  void unitsAStopKeptFromStartingAreReportedStoppedNotLeftOut() throws Exception {
    AtomicReference<Scheduler> running = new AtomicReference<>();
    BoundUnit stopsTheRun =
        unit(
            "c0",
            "stops",
            (checkpoint, sink, cancellation) -> {
              running.get().requestStop();
              sink.beginPart(OptionalLong.empty());
              sink.endPart(Optional.of(new FileMark(Instant.now(), "c0/stops")));
            });
    // One fetch at a time: c1 is still queued when c0's unit stops the run.
    ConnectionJob first =
        new ConnectionJob("c0", Duration.ofHours(1), List.of(stopsTheRun, fine("c0")));
    ConnectionJob queued = new ConnectionJob("c1", Duration.ofHours(1), List.of(fine("c1")));

    Map<String, TickOutcome> outcomes;
    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      running.set(scheduler);
      outcomes = scheduler.runOnce(List.of(first, queued));
    }

    assertThat(outcomes).containsOnlyKeys("c0.stops", "c0.fine", "c1.fine");
    assertThat(outcomes.get("c0.fine"))
        .as("after the stop, in its connection")
        .isEqualTo(new TickOutcome.Stopped());
    assertThat(outcomes.get("c1.fine"))
        .as("queued when the stop came")
        .isEqualTo(new TickOutcome.Stopped());
  }

  @Test
  void eachConnectionsFirstRunIsShiftedByItsJitterOffset() throws Exception {
    Instant now = Instant.parse("2026-05-01T12:00:00Z");
    Clock clock = Clock.fixed(now, java.time.ZoneOffset.UTC);
    TickJitter jitter = new TickJitter(50);
    Duration hour = Duration.ofHours(1);

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10), clock, jitter)) {
      scheduler.start(
          List.of(
              new ConnectionJob("alpha", hour, List.of(fine("alpha"))),
              new ConnectionJob("beta", hour, List.of(fine("beta")))));

      Instant alpha = scheduler.history().nextRunOf("alpha").orElseThrow();
      Instant beta = scheduler.history().nextRunOf("beta").orElseThrow();
      assertThat(alpha).isEqualTo(now.plus(jitter.offset("alpha", hour)));
      assertThat(beta).isEqualTo(now.plus(jitter.offset("beta", hour)));
      assertThat(alpha).as("two connections on one interval").isNotEqualTo(beta);
      assertThat(alpha).isBetween(now, now.plus(Duration.ofMinutes(30)));
      stopWithin(scheduler);
    }
  }

  @Test
  void aConnectionWhoseUnitCrashedIsStillScheduled() throws Exception {
    Crashing crashing = new Crashing();
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofMillis(20), List.of(unit("c0", "crashes", crashing)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> crashing.reads.get() >= 3);
      stopWithin(scheduler);
    }
  }

  @Test
  void aWokenUnitIsReadAtOnceAndOnlyItNotTheRestOfItsConnection() throws Exception {
    Waking tail = new Waking();
    Counting dump = new Counting();
    ConnectionJob job =
        new ConnectionJob(
            "c0", Duration.ofHours(1), List.of(unit("c0", "dump", dump), unit("c0", "tail", tail)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 1);
      assertThat(tail.wake.get()).as("the scheduler asked to be woken").isNotNull();

      tail.wake.get().run();

      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 2);
      assertThat(dump.reads.get()).as("the dump beside it waits for its interval").isEqualTo(1);
      stopWithin(scheduler);
    }
  }

  @Test
  void wakesDuringARunAskForOneMoreRunNotOneEach() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Waking tail = new Waking(release);
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofHours(1), List.of(unit("c0", "tail", tail)));

    try (Scheduler scheduler = new Scheduler(runner(), 2, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.inside.get() == 1);
      for (int i = 0; i < 100; i++) {
        tail.wake.get().run(); // written to while the first read still goes on
      }
      release.countDown();

      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 2);
      // No third read comes: a woken run is due (it waits WAKE_DELAY_MILLIS) or nothing is.
      await()
          .during(Duration.ofMillis(10 * Scheduler.WAKE_DELAY_MILLIS))
          .atMost(Duration.ofSeconds(10))
          .until(() -> tail.reads.get() == 2);
      assertThat(tail.most.get()).as("reads of one connection at once").isEqualTo(1);
      stopWithin(scheduler);
    }
  }

  @Test
  void aWakeAfterTheStopRunsNothing() throws Exception {
    Waking tail = new Waking();
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofHours(1), List.of(unit("c0", "tail", tail)));

    Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10));
    scheduler.start(List.of(job));
    await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 1);
    assertThat(scheduler.stop()).isTrue();

    tail.wake.get().run();

    assertThat(tail.reads.get()).isEqualTo(1);
    scheduler.close();
  }

  @Test
  void aWakeOfAConnectionTakenOffTheScheduleRunsNothing() throws Exception {
    Waking tail = new Waking();
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofHours(1), List.of(unit("c0", "tail", tail)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 1);
      assertThat(scheduler.unschedule("c0", "reload")).isTrue();

      tail.wake.get().run();

      await()
          .during(Duration.ofMillis(10 * Scheduler.WAKE_DELAY_MILLIS))
          .atMost(Duration.ofSeconds(10))
          .until(() -> tail.reads.get() == 1);
      stopWithin(scheduler);
    }
  }

  @Test
  void aUnitWhoseLastTickFailedIsNotWokenByWritesButTriedAgainOnItsInterval() throws Exception {
    FailingWaking tail = new FailingWaking();
    ConnectionJob job =
        new ConnectionJob("c0", Duration.ofMillis(1500), List.of(unit("c0", "tail", tail)));

    try (Scheduler scheduler = new Scheduler(runner(), 1, Duration.ofSeconds(10))) {
      scheduler.start(List.of(job));
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 1);
      for (int i = 0; i < 5; i++) {
        tail.wake.get().run(); // a file written to while the output is broken
      }

      await()
          .during(Duration.ofMillis(20 * Scheduler.WAKE_DELAY_MILLIS))
          .atMost(Duration.ofSeconds(10))
          .until(() -> tail.reads.get() == 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.reads.get() == 2);
      stopWithin(scheduler);
    }
  }

  /** A source that keeps the wake it is given and fails every read, as behind a broken output. */
  private static final class FailingWaking implements RowSource {
    final AtomicInteger reads = new AtomicInteger();
    final AtomicReference<Runnable> wake = new AtomicReference<>();

    @Override
    public void wakeOn(Runnable wake) {
      this.wake.set(wake);
    }

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws SourceException {
      reads.incrementAndGet();
      throw new SourceException("the output is broken (test)");
    }
  }

  /** A source that lands one empty part a read. */
  private static class Counting implements RowSource {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws InterruptedException {
      reads.incrementAndGet();
      sink.beginPart(OptionalLong.empty());
      sink.endPart(Optional.of(new FileMark(Instant.now(), "c0/" + reads.get())));
    }
  }

  /**
   * A source that keeps the wake it is given, as a tail does; its first read waits for {@code
   * release}, and it counts the most reads inside it at once.
   */
  private static final class Waking extends Counting {
    final AtomicReference<Runnable> wake = new AtomicReference<>();
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    private final CountDownLatch release;

    Waking() {
      this(new CountDownLatch(0));
    }

    Waking(CountDownLatch release) {
      this.release = release;
    }

    @Override
    public void wakeOn(Runnable wake) {
      this.wake.set(wake);
    }

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws InterruptedException {
      most.accumulateAndGet(inside.incrementAndGet(), Math::max);
      try {
        if (reads.get() == 0) {
          release.await();
        }
        super.read(checkpoint, sink, cancellation);
      } finally {
        inside.decrementAndGet();
      }
    }
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

  private static BoundUnit fine(String connection) {
    return unit(
        connection,
        "fine",
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.endPart(Optional.of(new FileMark(Instant.now(), connection + "/fine")));
        });
  }

  /** A source that throws what a class failing its static initialisation would. */
  private static final class Crashing implements RowSource {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation) {
      reads.incrementAndGet();
      throw new ExceptionInInitializerError("decoder (test)");
    }
  }

  /**
   * Stops {@code scheduler}, waiting for the ticks still running: {@code close} alone does not, and
   * they write into the test's directory.
   */
  private static void stopWithin(Scheduler scheduler) throws InterruptedException {
    assertThat(scheduler.stop()).isTrue();
  }

  private UnitRunner runner() {
    return new UnitRunner(
        new TickContext(
            new FileTransport(directory.resolve("landing")),
            Optional.empty(),
            OversizePolicy.DEFAULT,
            BatchLimits.DEFAULT,
            new FileCursorStore(directory.resolve("state"), Clock.systemUTC()),
            new FetcherMetrics(),
            Clock.systemUTC(),
            new UuidV7Generator(),
            () -> false));
  }

  /** How many ticks of {@code store} have ended, by the tick duration histogram's count. */
  private static long ticksEnded(FetcherMetrics metrics, String store) {
    for (MetricSnapshot snapshot : metrics.registry().scrape()) {
      if (snapshot instanceof HistogramSnapshot histogram
          && histogram.getMetadata().getPrometheusName().equals(MetricNames.TICK_DURATION)) {
        for (HistogramSnapshot.HistogramDataPointSnapshot point : histogram.getDataPoints()) {
          if (store.equals(point.getLabels().get("source"))) {
            return point.getCount();
          }
        }
      }
    }
    return 0;
  }

  /**
   * One single-unit connection per expected fetcher. Each fetch waits a while for all of them to be
   * inside at once, so the most seen at once is the scheduler's limit, or all of them when the
   * limit allows. The wait ends as soon as everyone is in; with a lower limit it times out.
   */
  private static final class Rendezvous implements RowSource {

    private static final long WAIT_MILLIS = 1_000;

    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger mostAtOnce = new AtomicInteger();
    final AtomicInteger reads = new AtomicInteger();
    private final CountDownLatch everyoneIn;
    private final int connections;

    Rendezvous(int connections) {
      this.connections = connections;
      this.everyoneIn = new CountDownLatch(connections);
    }

    List<ConnectionJob> jobs() {
      List<ConnectionJob> jobs = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        String connection = "c" + i;
        jobs.add(
            new ConnectionJob(
                connection, Duration.ofHours(1), List.of(unit(connection, "unit", this))));
      }
      return jobs;
    }

    @Override
    public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
        throws InterruptedException {
      int now = inside.incrementAndGet();
      mostAtOnce.accumulateAndGet(now, Math::max);
      try {
        everyoneIn.countDown();
        everyoneIn.await(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        sink.beginPart(OptionalLong.empty());
        sink.row(Row.ofDump(RawRecord.of("{\"n\":" + now + "}"), 1L, "rendezvous:1"));
        sink.endPart(Optional.of(new FileMark(Instant.now(), "rendezvous")));
      } finally {
        inside.decrementAndGet();
        reads.incrementAndGet();
      }
    }
  }
}
