package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The acknowledgement pipeline alone, against a transport the test completes by hand. */
class AcknowledgementPipelineTest {

  private static final Clock FROZEN =
      Clock.fixed(Instant.parse("2026-05-01T12:00:00Z"), ZoneOffset.UTC);
  private static final BatchLimits TWO_PER_BATCH = new BatchLimits(2, 1 << 20, 60_000);

  private final HandCompletedTransport transport = new HandCompletedTransport();
  private final List<Mark> committed = new CopyOnWriteArrayList<>();
  private final List<List<SendResult.Refused>> refusalsSeen = new CopyOnWriteArrayList<>();
  private final List<OutboundRecord> replacements = new ArrayList<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final ExecutorService driver = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopDriver() {
    driver.shutdownNow();
  }

  private AcknowledgementPipeline pipeline() {
    return new AcknowledgementPipeline(
        "inventory.hosts",
        transport,
        TWO_PER_BATCH,
        FROZEN,
        stopping::get,
        Duration.ofMillis(20),
        committed::add,
        refused -> {
          refusalsSeen.add(refused);
          return List.copyOf(replacements);
        },
        (topic, count) -> {});
  }

  private static OutboundRecord record(String text) {
    return new OutboundRecord(
        "t_land", Optional.empty(), text.getBytes(StandardCharsets.UTF_8), List.of());
  }

  private static FileMark mark(int n) {
    return new FileMark(Instant.ofEpochSecond(n), "part-" + n);
  }

  @Test
  void aMarkIsCommittedOnlyOnceEveryBatchBeforeItIsAcknowledgedWhateverOrderTheyComplete()
      throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    pipeline.add(record("a"));
    pipeline.add(record("b")); // batch 0
    pipeline.markAfterAdded(mark(1));
    pipeline.add(record("c"));
    pipeline.add(record("d")); // batch 1, mark 1 is safe once batches 0 and 1 landed
    pipeline.markAfterAdded(mark(2));
    pipeline.flush(); // mark 2 rides on an empty entry after batch 1
    assertThat(transport.sent).hasSize(2);

    transport.batch(1).acknowledge();
    pipeline.flush();
    assertThat(committed).as("batch 0 is still in flight").isEmpty();

    transport.batch(0).acknowledge();
    pipeline.flush();
    assertThat(committed).containsExactly(mark(1), mark(2));
    assertThat(pipeline.recordsLanded()).isEqualTo(4);
  }

  @Test
  void forATransportThatNeedsMarksWithTheirRecordsAFullBatchWaitsForTheMarkThatFollowsIt()
      throws Exception {
    // A tail read ends with advance(mark): mark, part's end, wait. On Connect exactly once, the
    // batch its last records filled must carry that mark; an empty batch with the mark behind it
    // would leave those records committed with the older mark, and read again after a task move.
    transport.needingMarksWithTheirRecords();
    AcknowledgementPipeline pipeline = pipeline();
    pipeline.add(record("a"));
    pipeline.add(record("b")); // full: held until the next message, mark or flush
    assertThat(transport.unitBatches).isEmpty();
    pipeline.markAfterAdded(mark(1));
    pipeline.endsPart();
    transport.acknowledgingOnSend();
    pipeline.awaitAll();
    pipeline.add(record("c"));
    pipeline.add(record("d"));
    pipeline.add(record("e")); // hands c and d over, without a mark

    assertThat(transport.unitBatches).hasSize(2);
    Transport.UnitBatch first = transport.unitBatches.get(0);
    assertThat(first.records()).hasSize(2);
    assertThat(first.markAfter()).contains(mark(1));
    assertThat(first.markCovers()).isEqualTo(2);
    assertThat(first.endsPart()).isTrue();
    assertThat(transport.unitBatches.get(1).records()).hasSize(2);
    assertThat(transport.unitBatches.get(1).markAfter()).isEmpty();
    assertThat(committed).containsExactly(mark(1));
  }

  @Test
  void theStandaloneTransportsGetAFullBatchAtOnceAndAMarkAfterItAlone() throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    pipeline.add(record("a"));
    pipeline.add(record("b"));
    assertThat(transport.unitBatches).as("handed over as it filled").hasSize(1);
    pipeline.markAfterAdded(mark(1));
    pipeline.endsPart();
    transport.acknowledgingOnSend();
    transport.batch(0).acknowledge();
    pipeline.awaitAll();

    assertThat(transport.unitBatches).hasSize(2);
    assertThat(transport.unitBatches.get(1).records()).isEmpty();
    assertThat(transport.unitBatches.get(1).markAfter()).contains(mark(1));
    assertThat(committed).containsExactly(mark(1));
  }

  @Test
  void aPartsEndGoesWithItsMarkEvenWhenItFillsTheBatch() throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    transport.acknowledgingOnSend();
    pipeline.add(record("r0"));
    pipeline.addPartEnd(record("end"), Optional.of(mark(1))); // fills the batch of two
    pipeline.awaitAll();

    assertThat(transport.unitBatches).hasSize(1);
    Transport.UnitBatch only = transport.unitBatches.get(0);
    assertThat(only.records())
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactly("r0", "end");
    assertThat(only.markAfter()).contains(mark(1));
    assertThat(only.markCovers()).isEqualTo(2);
    assertThat(only.endsPart()).isTrue();
    assertThat(committed).containsExactly(mark(1));
  }

  @Test
  void aBatchTellsTheTransportHowManyOfItsRecordsItsMarkCovers() throws Exception {
    AcknowledgementPipeline pipeline =
        new AcknowledgementPipeline(
            "inventory.hosts",
            transport.acknowledgingOnSend(),
            new BatchLimits(3, 1 << 20, 60_000),
            FROZEN,
            stopping::get,
            Duration.ofMillis(20),
            committed::add,
            refused -> List.of(),
            (topic, count) -> {});
    pipeline.add(record("a"));
    pipeline.markAfterAdded(mark(1)); // covers a only
    pipeline.add(record("b"));
    pipeline.add(record("c"));
    pipeline.add(record("d"));
    pipeline.markAfterAdded(mark(2)); // covers d
    pipeline.awaitAll();

    assertThat(transport.unitBatches)
        .extracting(Transport.UnitBatch::markAfter, Transport.UnitBatch::markCovers)
        .containsExactly(tuple(Optional.of(mark(1)), 1), tuple(Optional.of(mark(2)), 1));
    assertThat(committed).containsExactly(mark(1), mark(2));
  }

  @Test
  void aFailedBatchFailsTheWaitAndCommitsNothingAfterIt() throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    pipeline.add(record("a"));
    pipeline.add(record("b"));
    pipeline.markAfterAdded(mark(1));
    pipeline.flush(); // mark 1 follows batch 0 alone
    pipeline.add(record("c"));
    pipeline.add(record("d"));
    pipeline.markAfterAdded(mark(2));
    pipeline.flush();

    transport.batch(0).acknowledge();
    transport.batch(1).fail("disk full (test)");

    assertThatThrownBy(pipeline::awaitAll)
        .isInstanceOf(LandingFailedException.class)
        .hasMessageContaining("inventory.hosts")
        .hasMessageContaining("disk full (test)");
    assertThat(committed).containsExactly(mark(1));
  }

  @Test
  void afterAnAbortNothingBufferedIsSentAndNoMarkInFlightIsCommitted() throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    pipeline.add(record("a"));
    pipeline.add(record("b"));
    pipeline.markAfterAdded(mark(1));
    pipeline.add(record("c")); // buffered, not sent
    pipeline.abort();

    transport.batch(0).acknowledge();
    pipeline.awaitAll();

    assertThat(transport.sent).hasSize(1);
    assertThat(committed).isEmpty();
  }

  @Test
  void atMostEightBatchesAreInFlightBeforeTheOldestIsWaitedFor() throws Exception {
    AcknowledgementPipeline pipeline = pipeline();
    Future<?> adding =
        driver.submit(
            () -> {
              for (int i = 0; i < 2 * (AcknowledgementPipeline.MAX_BATCHES_IN_FLIGHT + 1); i++) {
                pipeline.add(record("r" + i));
              }
              return null;
            });

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> transport.sent.size() == AcknowledgementPipeline.MAX_BATCHES_IN_FLIGHT + 1);
    assertThat(adding).as("the ninth batch waits for the first").isNotDone();
    transport.batch(0).acknowledge();
    adding.get(5, TimeUnit.SECONDS);
  }

  @Test
  void aWaitForAnAcknowledgementThatNeverComesEndsWhenTheServiceStops() {
    AcknowledgementPipeline pipeline = pipeline();
    Future<?> waiting =
        driver.submit(
            () -> {
              pipeline.add(record("a"));
              pipeline.awaitAll();
              return null;
            });
    await().atMost(Duration.ofSeconds(5)).until(() -> transport.sent.size() == 1);

    stopping.set(true);

    await()
        .atMost(Duration.ofSeconds(2))
        .untilAsserted(
            () ->
                assertThatThrownBy(() -> waiting.get(0, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(StoppingException.class));
    assertThat(committed).isEmpty();
  }

  @Test
  void refusalsAreRoutedAndTheirReplacementsLandBeforeTheBatchMarkIsCommitted() throws Exception {
    // The first batch is completed by hand (b refused); the replacement is acknowledged on send.
    HandCompletedTransport refusing = new HandCompletedTransport();
    AcknowledgementPipeline routed =
        new AcknowledgementPipeline(
            "inventory.hosts",
            refusing,
            TWO_PER_BATCH,
            FROZEN,
            stopping::get,
            Duration.ofMillis(20),
            committed::add,
            refused -> {
              refusalsSeen.add(refused);
              refusing.acknowledgingOnSend();
              return List.of(record("stub in place of b"));
            },
            (topic, count) -> {});
    routed.add(record("a"));
    routed.add(record("b"));
    routed.markAfterAdded(mark(1));
    routed.flush();
    refusing.batch(0).refuse(1, "RecordTooLargeException (test)");

    routed.awaitAll();

    assertThat(refusalsSeen).hasSize(1);
    assertThat(refusalsSeen.get(0).get(0).record().value())
        .isEqualTo("b".getBytes(StandardCharsets.UTF_8));
    assertThat(refusing.sent).hasSize(2);
    assertThat(new String(refusing.batch(1).batch().get(0).value(), StandardCharsets.UTF_8))
        .isEqualTo("stub in place of b");
    assertThat(committed).containsExactly(mark(1));
    assertThat(routed.recordsLanded()).as("a and the stub; b did not land").isEqualTo(2);
  }

  @Test
  void aRefusalTheRouterCannotReplaceFailsTheTickAndCommitsNothing() throws Exception {
    HandCompletedTransport refusing = new HandCompletedTransport();
    AcknowledgementPipeline routed =
        new AcknowledgementPipeline(
            "inventory.hosts",
            refusing,
            TWO_PER_BATCH,
            FROZEN,
            stopping::get,
            Duration.ofMillis(20),
            committed::add,
            refused -> {
              throw new LandingFailedException("the end frame was refused (test)", null);
            },
            (topic, count) -> {});
    routed.add(record("end"));
    routed.markAfterAdded(mark(1));
    routed.flush();
    refusing.batch(0).refuse(0, "RecordTooLargeException (test)");

    assertThatThrownBy(routed::awaitAll).hasMessageContaining("end frame was refused");
    assertThat(committed).isEmpty();
  }
}
