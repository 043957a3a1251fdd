package dfe.fetcher.runtime.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.runtime.config.ConfigLoader;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.source.config.ConfigException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's side of the source contract: a stop never waits past its grace whatever a source
 * does, connections are opened by their first tick and closed on shutdown and on a reload that
 * changes them, and a part a source aborts fails its unit with the reason.
 */
class FetcherServiceLifecycleTest {

  @TempDir Path directory;
  private final ScriptedFamily family = new ScriptedFamily();
  private final CountDownLatch releaseStuckSources = new CountDownLatch(1);
  private final ExecutorService caller = Executors.newSingleThreadExecutor();

  @AfterEach
  void tearDown() {
    releaseStuckSources.countDown();
    caller.shutdownNow();
  }

  private FetcherConfig config(String sources) throws ConfigException {
    FetcherWorkspace workspace = new FetcherWorkspace(directory);
    Path file =
        workspace.config(FetcherWorkspace.HEADER + "scheduler: {stop_grace_secs: 1}\n" + sources);
    return ConfigLoader.load(file, Map.of(), FilterStages.COMPILER, List.of(family));
  }

  /** A source that ignores interrupts and cancellation alike: only the test can release it. */
  private void blocksForever(String unit, CountDownLatch inside) {
    family.behaviours.put(
        unit,
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          inside.countDown();
          while (true) {
            try {
              if (releaseStuckSources.await(1, TimeUnit.HOURS)) {
                return;
              }
            } catch (InterruptedException ignored) {
              // This source does not answer interrupts.
            }
          }
        });
  }

  private void endsOnePart(String unit) {
    family.behaviours.put(
        unit,
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(Row.ofDump(RawRecord.of("{\"id\":1}"), 1L, unit + ":1"));
          sink.endPart(Optional.of(new FileMark(Instant.ofEpochSecond(1), unit)));
        });
  }

  @Test
  void aServiceStopEndsWithinItsGraceWhateverASourceIsDoing() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    blocksForever("stuck", inside);
    try (FetcherService service =
        FetcherService.create(
            config("sources: {test: {c1: {topic: t, units: [stuck]}}}\n"), Clock.systemUTC())) {
      service.start();
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

      long started = System.nanoTime();
      boolean clean = service.stop();
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(clean).as("the stuck tick is reported, not waited for").isFalse();
      assertThat(took).isLessThan(Duration.ofMillis(2_500));
    }
  }

  @Test
  void runOnceReturnsWithinTheGraceAfterAStopAndNamesTheUnitItLeftBehind() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    blocksForever("stuck", inside);
    endsOnePart("fine");
    try (FetcherService service =
        FetcherService.create(
            config(
                "sources: {test: {c1: {topic: t, units: [stuck]}, c2: {topic: u, units: [fine]}}}\n"),
            Clock.systemUTC())) {
      Future<Map<String, TickOutcome>> run = caller.submit(service::runOnce);
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

      service.requestStop();

      Map<String, TickOutcome> outcomes = run.get(2_500, TimeUnit.MILLISECONDS);
      assertThat(outcomes.get("c1.stuck"))
          .isInstanceOfSatisfying(
              TickOutcome.Failed.class,
              failed -> assertThat(failed.reason()).contains("still running", "after the stop"));
    }
  }

  @Test
  void aSourceBlockedInACancellableCallStopsAtOnce() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    family.behaviours.put(
        "waits",
        (checkpoint, sink, cancellation) -> {
          CountDownLatch server = new CountDownLatch(1);
          try (Cancellation.Registration cancel = cancellation.onCancel(server::countDown)) {
            inside.countDown();
            awaitIgnoringInterrupts(server);
          }
          cancellation.throwIfCancelled();
        });
    try (FetcherService service =
        FetcherService.create(
            config("sources: {test: {c1: {topic: t, units: [waits]}}}\n"), Clock.systemUTC())) {
      service.start();
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

      long started = System.nanoTime();
      assertThat(service.stop()).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
    }
  }

  @Test
  void aConnectionIsOpenedByItsFirstTickAndClosedOnShutdown() throws Exception {
    endsOnePart("a");
    endsOnePart("b");
    FetcherService service =
        FetcherService.create(
            config("sources: {test: {c1: {topic: t, units: [a, b]}}}\n"), Clock.systemUTC());
    assertThat(family.opens("c1")).as("nothing is opened before a tick needs it").isZero();

    Map<String, TickOutcome> outcomes = service.runOnce();

    assertThat(outcomes.values()).allMatch(TickOutcome.Succeeded.class::isInstance);
    assertThat(family.opens("c1")).as("one open for both units").isEqualTo(1);
    assertThat(family.closes("c1")).isZero();
    service.close();
    assertThat(family.closes("c1")).isEqualTo(1);
  }

  @Test
  void aReloadClosesAndReopensAChangedConnectionAndKeepsAnUnchangedOneOpen() throws Exception {
    endsOnePart("a");
    endsOnePart("b");
    try (FetcherService service =
        FetcherService.create(
            config("sources: {test: {c1: {topic: t, units: [a]}, c2: {topic: u, units: [b]}}}\n"),
            Clock.systemUTC())) {
      service.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> family.opens("c1") == 1 && family.opens("c2") == 1);

      service.reload(
          config(
              "sources: {test: {c1: {topic: t, units: [a], setting: 2},"
                  + " c2: {topic: u, units: [b], filter: 'true'}}}\n"));

      assertThat(family.closes("c1")).as("c1's settings changed").isEqualTo(1);
      await().atMost(Duration.ofSeconds(10)).until(() -> family.opens("c1") == 2);
      assertThat(family.closes("c2")).as("only c2's filter changed").isZero();
      assertThat(family.opens("c2")).isEqualTo(1);
    }
  }

  @Test
  void aReloadThatRemovesAConnectionCancelsItsBlockedTickAndClosesIt() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    family.behaviours.put(
        "waits",
        (checkpoint, sink, cancellation) -> {
          CountDownLatch server = new CountDownLatch(1);
          try (Cancellation.Registration cancel = cancellation.onCancel(server::countDown)) {
            inside.countDown();
            server.await();
          }
          cancellation.throwIfCancelled();
        });
    endsOnePart("b");
    try (FetcherService service =
        FetcherService.create(
            config(
                "sources: {test: {c1: {topic: t, units: [waits]}, c2: {topic: u, units: [b]}}}\n"),
            Clock.systemUTC())) {
      service.start();
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

      long started = System.nanoTime();
      service.reload(config("sources: {test: {c2: {topic: u, units: [b]}}}\n"));

      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(900));
      assertThat(family.closes("c1")).isEqualTo(1);
      assertThat(family.closes("c2")).isZero();
    }
  }

  @Test
  void aPartTheSourceAbortsFailsItsUnitWithTheReasonAndTheOtherUnitsRun() throws Exception {
    family.behaviours.put(
        "paged",
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.abortPart("GET /assets: reached max_pages (50)");
        });
    endsOnePart("fine");
    try (FetcherService service =
        FetcherService.create(
            config("sources: {test: {c1: {topic: t, units: [paged, fine]}}}\n"),
            Clock.systemUTC())) {
      Map<String, TickOutcome> outcomes = service.runOnce();

      assertThat(outcomes.get("c1.paged"))
          .isEqualTo(new TickOutcome.Failed("aborted: GET /assets: reached max_pages (50)"));
      assertThat(outcomes.get("c1.fine")).isInstanceOf(TickOutcome.Succeeded.class);
    }
  }

  /** Stands for a server call: it ends when its own cancel is called, not on an interrupt. */
  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException ignored) {
        // A server call does not end on an interrupt.
      }
    }
  }
}
