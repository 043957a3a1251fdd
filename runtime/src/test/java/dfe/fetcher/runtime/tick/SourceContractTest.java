package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What a source can say through {@link dfe.fetcher.core.row.RowSink} and {@link Cancellation}, as
 * the driver carries it out: parts without a position, parts aborted on purpose, checkpoints of
 * another kind, and cancellation of what a source blocks in.
 */
class SourceContractTest {

  private static final String TOPIC = "inventory-hosts_land";
  private static final String STORE = "inventory.hosts";
  private static final String KEY = "test.inventory.hosts";

  @TempDir Path directory;
  private Landing landing;
  private final ExecutorService ticks = Executors.newSingleThreadExecutor();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger runnerLog = (Logger) LoggerFactory.getLogger("dfe.fetcher.tick");

  @BeforeEach
  void setUp() {
    landing = new Landing(directory);
    logged.start();
    runnerLog.addAppender(logged);
  }

  @AfterEach
  void tearDown() {
    runnerLog.detachAppender(logged);
    ticks.shutdownNow();
  }

  private static Row row(String json) {
    return Row.ofDump(RawRecord.of(json), 1L, "test:1");
  }

  @Test
  void aDumpPartWithoutAPositionLandsCompleteAndWritesNoCheckpoint() throws Exception {
    RowSource wholeTable =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.of(2));
          sink.row(row("{\"id\":1}"));
          sink.row(row("{\"id\":2}"));
          sink.endPart(Optional.empty());
        };

    TickOutcome outcome = landing.runner().runTick(Landing.positionlessDumpUnit(wholeTable));

    assertThat(outcome).isEqualTo(new TickOutcome.Succeeded(1, 4));
    assertThat(landing.completeSnapshotRows(TOPIC))
        .containsExactly(List.of("{\"id\":1}", "{\"id\":2}"));
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
    assertThat(landing.metrics.counterValue(MetricNames.CHECKPOINT_COMMITS, STORE)).isZero();
  }

  @Test
  void aUnitThatCommitsNoPositionIsNeverHandedACheckpoint() throws Exception {
    landing.cursors.commit(KEY, ScriptedSource.mark(7));
    List<Optional<Mark>> handed = new CopyOnWriteArrayList<>();
    RowSource wholeTable =
        (checkpoint, sink, cancellation) -> {
          handed.add(checkpoint);
          sink.beginPart(OptionalLong.empty());
          sink.endPart(Optional.empty());
        };

    landing.runner().runTick(Landing.positionlessDumpUnit(wholeTable));

    assertThat(handed).containsExactly(Optional.empty());
  }

  /** Records each batch as the tick hands it to the transport, then lands it. */
  private final class RecordingBatches implements Transport {
    final List<String> batches = new CopyOnWriteArrayList<>();
    final List<String> abandoned = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
      return landing.transport.send(batch);
    }

    @Override
    public CompletableFuture<SendResult> send(UnitBatch batch) {
      String kinds =
          String.join(
              ",",
              batch.records().stream()
                  .map(r -> r.headers().isEmpty() ? "?" : r.headers().get(0).value())
                  .toList());
      batches.add(
          batch.store()
              + " ["
              + kinds
              + "] mark="
              + batch.markAfter().map(Object::toString).orElse("-")
              + (batch.endsPart() ? " ends" : ""));
      return Transport.super.send(batch);
    }

    @Override
    public void abandoned(String store) {
      abandoned.add(store);
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void close() {}
  }

  @Test
  void thePartsMarkAndEndGoWithTheBatchHoldingItsEndFrameEvenWhenTheFrameFillsIt() {
    landing.batchLimits = new BatchLimits(1, 1 << 20, 60_000);
    RecordingBatches recording = new RecordingBatches();
    landing.output = recording;
    Mark mark = ScriptedSource.mark(2);
    RowSource oneFile =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.endPart(Optional.of(mark));
        };

    landing.runner().runTick(Landing.dumpUnit(oneFile, RowFilterStage.KEEP_ALL));

    assertThat(recording.batches)
        .containsExactly(
            STORE + " [begin] mark=-",
            STORE + " [row] mark=-",
            STORE + " [end] mark=" + mark + " ends",
            STORE + " [] mark=- ends");
    assertThat(recording.abandoned).isEmpty();
  }

  @Test
  void aBadFilesDeadLetterEndsAPartOfItsOwnSoTheNextPartsAbortCannotTakeItBack() {
    RecordingBatches recording = new RecordingBatches();
    landing.output = recording;
    Mark mark = ScriptedSource.mark(3);
    RowSource files =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.skipPart("bad.ndjson", "bad.ndjson:2:1: not JSON");
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":2}"));
          sink.endPart(Optional.of(mark));
        };

    landing.runner().runTick(Landing.dumpUnit(files, RowFilterStage.KEEP_ALL));

    assertThat(recording.batches)
        .containsExactly(
            STORE + " [begin,row] mark=-",
            STORE + " [?] mark=- ends",
            STORE + " [begin,row] mark=-",
            STORE + " [end] mark=" + mark + " ends",
            STORE + " [] mark=- ends");
    assertThat(recording.abandoned).containsExactly(STORE);
  }

  @Test
  void aPartAbortedOnPurposeIsAbandonedToTheTransportAfterItsFramesWereHandedOver() {
    RecordingBatches recording = new RecordingBatches();
    landing.output = recording;
    RowSource pagedApi =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.abortPart("cut");
        };

    landing.runner().runTick(Landing.positionlessDumpUnit(pagedApi));

    assertThat(recording.batches).first().asString().startsWith(STORE + " [begin,row]");
    assertThat(recording.abandoned).containsExactly(STORE);
  }

  @Test
  void aPartAbortedOnPurposeLandsNoEndCountsAbortedAndFailsTheTickWithItsReason() {
    RowSource pagedApi =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.abortPart("GET /assets: reached max_pages (1) with more pages to go");
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":2}"));
          sink.endPart(Optional.of(ScriptedSource.mark(2)));
        };

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(pagedApi, RowFilterStage.KEEP_ALL));

    assertThat(outcome)
        .isEqualTo(
            new TickOutcome.Failed(
                "aborted: GET /assets: reached max_pages (1) with more pages to go"));
    Reassembler reassembler = landing.reassembled(TOPIC);
    assertThat(reassembler.reports())
        .extracting(SnapshotReport::status)
        .containsExactlyInAnyOrder(SnapshotStatus.OPEN, SnapshotStatus.COMPLETE);
    assertThat(landing.jsonLines(TOPIC))
        .filteredOn(frame -> frame.get("kind").asText().equals("end"))
        .hasSize(1);
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "aborted")).isEqualTo(1);
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "complete")).isEqualTo(1);
    assertThat(landing.metrics.counterValue(MetricNames.TICK_FAILURES, STORE)).isEqualTo(1);
  }

  @Test
  void aCheckpointOfAnotherKindIsReportedOnceAndTreatedAsNone() throws Exception {
    landing.cursors.commit(KEY, new WindowMark(Instant.parse("2026-05-01T00:00:00Z")));
    List<Optional<Mark>> handed = new CopyOnWriteArrayList<>();
    RowSource failing =
        (checkpoint, sink, cancellation) -> {
          handed.add(checkpoint);
          throw new SourceException("data/a.ndjson:1: not valid JSON (test)");
        };
    UnitRunner runner = landing.runner();

    runner.runTick(Landing.dumpUnit(failing, RowFilterStage.KEEP_ALL));
    runner.runTick(Landing.dumpUnit(failing, RowFilterStage.KEEP_ALL));

    assertThat(handed).containsExactly(Optional.empty(), Optional.empty());
    assertThat(logged.list)
        .filteredOn(event -> event.getFormattedMessage().contains("checkpoint_of_another_kind"))
        .singleElement()
        .satisfies(
            event ->
                assertThat(event.getFormattedMessage()).contains("found=window", "expected=file"));
  }

  @Test
  void aSourceBlockedInACancellableCallEndsPromptlyWhenTheRunnerCancelsIt() throws Exception {
    CountDownLatch blockedForever = new CountDownLatch(1);
    CountDownLatch inside = new CountDownLatch(1);
    RowSource waitsOnAServer =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          // Stands for a JDBC statement or an HTTP request: it ignores interrupts and returns only
          // when its own cancel is called.
          try (Cancellation.Registration cancel =
              cancellation.onCancel(blockedForever::countDown)) {
            inside.countDown();
            while (true) {
              try {
                blockedForever.await();
                break;
              } catch (InterruptedException ignored) {
                // A server call does not end on an interrupt.
              }
            }
          }
          cancellation.throwIfCancelled();
          sink.endPart(Optional.of(ScriptedSource.mark(1)));
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(
            () -> runner.runTick(Landing.dumpUnit(waitsOnAServer, RowFilterStage.KEEP_ALL)));
    assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

    runner.cancelAll("stopping");

    assertThat(tick.get(2, TimeUnit.SECONDS)).isEqualTo(new TickOutcome.Stopped(true));
    assertThat(landing.jsonLines(TOPIC))
        .extracting(frame -> frame.get("kind").asText())
        .doesNotContain("end");
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "aborted")).isEqualTo(1);
  }

  @Test
  void aBackOffSleepEndsAtOnceWhenTheTickIsCancelled() throws Exception {
    CountDownLatch sleeping = new CountDownLatch(1);
    RowSource retrying =
        (checkpoint, sink, cancellation) -> {
          sleeping.countDown();
          cancellation.sleep(Duration.ofHours(1));
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(() -> runner.runTick(Landing.dumpUnit(retrying, RowFilterStage.KEEP_ALL)));
    assertThat(sleeping.await(5, TimeUnit.SECONDS)).isTrue();
    await().atMost(Duration.ofSeconds(5)).until(() -> !runner.runningStores().isEmpty());

    runner.cancelConnection("inventory", "reload");

    assertThat(tick.get(2, TimeUnit.SECONDS)).isEqualTo(new TickOutcome.Stopped());
  }

  @Test
  void aCancelledTicksOwnFailureIsAStopNotAFailure() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    RowSource closedUnderIt =
        (checkpoint, sink, cancellation) -> {
          CountDownLatch closed = new CountDownLatch(1);
          try (Cancellation.Registration r = cancellation.onCancel(closed::countDown)) {
            inside.countDown();
            closed.await();
          }
          throw new SourceException("socket closed (test)");
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(
            () -> runner.runTick(Landing.dumpUnit(closedUnderIt, RowFilterStage.KEEP_ALL)));
    assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

    runner.cancelAll("stopping");

    assertThat(tick.get(2, TimeUnit.SECONDS)).isEqualTo(new TickOutcome.Stopped());
    assertThat(landing.metrics.counterValue(MetricNames.TICK_FAILURES, STORE)).isZero();
  }

  @Test
  void aReloadEndsATickWaitingForAnAcknowledgementThatDoesNotCome() throws Exception {
    landing.output = new HandCompletedTransport();
    RowSource oneRow =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.endPart(Optional.of(ScriptedSource.mark(1)));
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(() -> runner.runTick(Landing.dumpUnit(oneRow, RowFilterStage.KEEP_ALL)));
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> !((HandCompletedTransport) landing.output).sent.isEmpty());

    runner.cancelConnection("inventory", "reload");

    assertThat(tick.get(2, TimeUnit.SECONDS)).isEqualTo(new TickOutcome.Stopped(true));
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
  }

  @Test
  void aSourceThatAdvancesWithADumpPartOpenFailsItsTick() {
    RowSource confused =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.advance(ScriptedSource.mark(9));
        };

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(confused, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
  }

  @Test
  void awaitLandedReturnsOnlyOnceEveryRowHandedBeforeItIsAcknowledged() throws Exception {
    HandCompletedTransport transport = new HandCompletedTransport();
    landing.output = transport;
    AtomicBoolean landed = new AtomicBoolean();
    RowSource queue =
        (checkpoint, sink, cancellation) -> {
          sink.row(new Row(RawRecord.of("{\"id\":1}"), 1L, Optional.empty(), "queue:1"));
          sink.row(new Row(RawRecord.of("{\"id\":2}"), 1L, Optional.empty(), "queue:2"));
          sink.awaitLanded();
          landed.set(true);
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(() -> runner.runTick(Landing.tailUnit(queue, RowFilterStage.KEEP_ALL)));
    await().atMost(Duration.ofSeconds(5)).until(() -> !transport.sent.isEmpty());

    assertThat(transport.batch(0).batch()).hasSize(2);
    assertThat(landed).as("returned before the acknowledgement").isFalse();
    transport.acknowledgingOnSend();
    transport.batch(0).acknowledge();

    await().atMost(Duration.ofSeconds(5)).untilTrue(landed);
    assertThat(tick.get(5, TimeUnit.SECONDS)).isInstanceOf(TickOutcome.Succeeded.class);
  }

  @Test
  void awaitLandedThrowsWhenTheTransportFailsSoNothingIsAcknowledged() throws Exception {
    HandCompletedTransport transport = new HandCompletedTransport();
    landing.output = transport;
    AtomicBoolean landed = new AtomicBoolean();
    RowSource queue =
        (checkpoint, sink, cancellation) -> {
          sink.row(new Row(RawRecord.of("{\"id\":1}"), 1L, Optional.empty(), "queue:1"));
          sink.awaitLanded();
          landed.set(true);
        };
    UnitRunner runner = landing.runner();
    Future<TickOutcome> tick =
        ticks.submit(() -> runner.runTick(Landing.tailUnit(queue, RowFilterStage.KEEP_ALL)));
    await().atMost(Duration.ofSeconds(5)).until(() -> !transport.sent.isEmpty());

    transport.batch(0).fail("broker gone");

    assertThat(tick.get(5, TimeUnit.SECONDS)).isInstanceOf(TickOutcome.Failed.class);
    assertThat(landed).isFalse();
  }

  @Test
  void awaitLandedInsideADumpPartFailsTheTick() {
    RowSource confused =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.empty());
          sink.row(row("{\"id\":1}"));
          sink.awaitLanded();
        };

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(confused, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(landing.completeSnapshotRows(TOPIC)).isEmpty();
  }
}
