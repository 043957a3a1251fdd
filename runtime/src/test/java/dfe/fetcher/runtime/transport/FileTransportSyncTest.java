package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grouped fsyncs: a batch of one topic is acknowledged once an fsync begun after its write has
 * succeeded, the sender does not wait for it, and a failed fsync fails every batch it should have
 * covered, cuts the file back and holds the unit's later batches until its tick is abandoned.
 */
class FileTransportSyncTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path directory;

  /** An fsync the test holds, lets go or fails; it counts the fsyncs it was asked for. */
  private final HeldSync sync = new HeldSync();

  private FileTransport transport;

  @AfterEach
  void close() {
    sync.letGo();
    if (transport != null) {
      transport.close();
    }
  }

  private FileTransport transport() {
    transport =
        new FileTransport(
            directory, FileRotation.NEVER, Clock.systemUTC(), FileOutputEvents.NONE, sync);
    return transport;
  }

  private static OutboundRecord record(String topic, String value) {
    return new OutboundRecord(
        topic, Optional.empty(), value.getBytes(StandardCharsets.UTF_8), List.of());
  }

  private static Transport.UnitBatch unitBatch(String store, String topic, String... values) {
    return new Transport.UnitBatch(
        store,
        List.of(values).stream().map(v -> record(topic, v)).toList(),
        Optional.empty(),
        false);
  }

  private List<String> lines(String topic) throws IOException {
    return Files.readAllLines(directory.resolve(topic + ".ndjson"));
  }

  @Test
  void theSenderGoesOnWhileTheDiskSyncsAndOneFsyncCoversEveryBatchWrittenBeforeIt()
      throws Exception {
    FileTransport transport = transport();
    sync.hold();
    CompletableFuture<SendResult> first = transport.send(List.of(record("t", "1")));
    sync.awaitEntered(1);

    CompletableFuture<SendResult> second = transport.send(List.of(record("t", "2")));
    CompletableFuture<SendResult> third = transport.send(List.of(record("t", "3")));

    assertThat(first).isNotDone();
    assertThat(second).isNotDone();
    assertThat(third).isNotDone();
    assertThat(lines("t")).containsExactly("1", "2", "3"); // written, not yet acknowledged
    sync.letGo();
    assertThat(first).succeedsWithin(WAIT).isEqualTo(SendResult.ALL_ACKNOWLEDGED);
    assertThat(second).succeedsWithin(WAIT).isEqualTo(SendResult.ALL_ACKNOWLEDGED);
    assertThat(third).succeedsWithin(WAIT).isEqualTo(SendResult.ALL_ACKNOWLEDGED);
    // The first fsync began before "2" and "3" were written; one more covered both.
    assertThat(sync.calls()).isEqualTo(2);
  }

  @Test
  void aFailedFsyncFailsEveryBatchSinceTheLastGoodOneAndCutsTheFileBackToIt() throws Exception {
    FileTransport transport = transport();
    assertThat(transport.send(unitBatch("c.u", "t", "1", "2")))
        .succeedsWithin(WAIT)
        .isEqualTo(SendResult.ALL_ACKNOWLEDGED);
    sync.hold();
    sync.failNext();
    CompletableFuture<SendResult> second = transport.send(unitBatch("c.u", "t", "3"));
    sync.awaitEntered(2);
    CompletableFuture<SendResult> third = transport.send(unitBatch("c.u", "t", "4"));

    sync.letGo();

    for (CompletableFuture<SendResult> failed : List.of(second, third)) {
      assertThat(failed)
          .failsWithin(WAIT)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOf(TransportException.class)
          .withMessageContaining("writing topic t to " + directory.resolve("t.ndjson"))
          .withMessageContaining("Input/output error");
    }
    assertThat(lines("t")).containsExactly("1", "2");
  }

  @Test
  void aUnitWhoseBatchFailedToBecomeDurableGetsNoFurtherBatchUntilItAbandonsItsTick()
      throws Exception {
    FileTransport transport = transport();
    sync.failNext();
    CompletableFuture<SendResult> failed = transport.send(unitBatch("c.u", "t", "1"));
    assertThat(failed).failsWithin(WAIT);

    CompletableFuture<SendResult> refused = transport.send(unitBatch("c.u", "t", "2"));
    CompletableFuture<SendResult> otherUnit = transport.send(unitBatch("c.v", "t", "3"));

    assertThat(refused)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .withMessage(
            "unit c.u: an earlier batch failed to become durable; nothing more of this tick is"
                + " written");
    assertThat(otherUnit).succeedsWithin(WAIT);
    transport.abandoned("c.u");
    assertThat(transport.send(unitBatch("c.u", "t", "4"))).succeedsWithin(WAIT);
    assertThat(lines("t")).containsExactly("3", "4");
  }

  @Test
  void aBatchOfSeveralTopicsIsSyncedByItsSenderAndLandsWholeOrNotAtAll() throws Exception {
    FileTransport transport = transport();
    assertThat(transport.send(List.of(record("a", "1"), record("b", "1")))).isDone();
    sync.failNext(2); // "a" syncs first (topic order), then "b" fails

    CompletableFuture<SendResult> sent =
        transport.send(List.of(record("a", "2"), record("b", "2")));

    assertThat(sent)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .withMessageContaining("writing topic b to " + directory.resolve("b.ndjson"));
    assertThat(lines("a")).containsExactly("1");
    assertThat(lines("b")).containsExactly("1");
  }

  @Test
  void closingSyncsWhatStillWaits() throws Exception {
    FileTransport transport = transport();
    sync.hold();
    CompletableFuture<SendResult> first = transport.send(List.of(record("t", "1")));
    sync.awaitEntered(1);
    CompletableFuture<SendResult> second = transport.send(List.of(record("t", "2")));
    Thread closing = new Thread(transport::close, "closing");
    closing.start();
    await().atMost(WAIT).until(() -> closing.getState() != Thread.State.RUNNABLE);

    sync.letGo();
    closing.join(WAIT.toMillis());

    assertThat(closing.isAlive()).isFalse();
    assertThat(first).succeedsWithin(WAIT);
    assertThat(second).succeedsWithin(Duration.ZERO);
    assertThat(lines("t")).containsExactly("1", "2");
  }

  @Test
  void aSendAfterCloseIsSyncedByItsSender() throws Exception {
    FileTransport transport = transport();
    transport.close();

    CompletableFuture<SendResult> sent = transport.send(List.of(record("t", "1")));

    assertThat(sent).isCompletedWithValue(SendResult.ALL_ACKNOWLEDGED);
    assertThat(sync.calls()).isEqualTo(1);
  }

  /** The fsync of the tests: held on a latch while {@link #hold}, failing the asked-for call. */
  private static final class HeldSync implements FileTransport.FileSync {
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger failAt = new AtomicInteger(-1);
    private volatile CountDownLatch gate = new CountDownLatch(0);

    void hold() {
      gate = new CountDownLatch(1);
    }

    void letGo() {
      gate.countDown();
    }

    /** The next call fails (or the call {@code later} calls from now, counting it as 1). */
    void failNext(int later) {
      failAt.set(calls.get() + later);
    }

    void failNext() {
      failNext(1);
    }

    int calls() {
      return calls.get();
    }

    void awaitEntered(int call) {
      await().atMost(WAIT).until(() -> calls.get() >= call);
    }

    @Override
    public void sync(FileOutputStream out) throws IOException {
      int call = calls.incrementAndGet();
      try {
        if (!gate.await(WAIT.toSeconds() * 3, TimeUnit.SECONDS)) {
          throw new IOException("the test never let the fsync go");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      if (call == failAt.get()) {
        throw new IOException("Input/output error");
      }
      out.getFD().sync();
    }
  }
}
