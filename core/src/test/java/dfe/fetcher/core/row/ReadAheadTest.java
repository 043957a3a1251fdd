package dfe.fetcher.core.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.RawRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A source read ahead on its own thread: the driver's sink sees every call in order on the driver's
 * thread, failures on either side keep their place, and the source is held back by the buffer.
 */
class ReadAheadTest {

  private static Row row(int n) {
    return new Row(RawRecord.of("{\"n\":" + n + "}"), 0, Optional.empty(), "line " + n);
  }

  /** A driver's sink that writes down each call and the thread it came on. */
  private static class Recording implements RowSink {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final List<String> threads = Collections.synchronizedList(new ArrayList<>());

    void note(String call) {
      calls.add(call);
      threads.add(Thread.currentThread().getName());
    }

    @Override
    public void beginPart(OptionalLong total) {
      note("begin " + total.orElse(-1));
    }

    @Override
    public void row(Row row) throws InterruptedException {
      note("row " + row.origin());
    }

    @Override
    public void endPart(Optional<Mark> position) {
      note("end");
    }

    @Override
    public void abortPart(String reason) {
      note("abort " + reason);
    }

    @Override
    public void advance(Mark mark) {
      note("advance " + ((CursorTokenMark) mark).token());
    }

    @Override
    public void awaitLanded() {
      note("landed");
    }

    @Override
    public void skipped(String place, String reason) {
      note("skipped " + place);
    }
  }

  @Test
  void everyCallOfTheSourceIsMadeInOrderOnTheDriversThread() throws Exception {
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          sink.beginPart(OptionalLong.of(3));
          for (int n = 0; n < 3; n++) {
            sink.row(row(n));
          }
          sink.skipped("b.log", "unreadable");
          sink.endPart(Optional.empty());
          sink.advance(new CursorTokenMark("t1"));
        };
    Recording driver = new Recording();

    new ReadAhead(source, "dfe-read-ahead-test", 2, 1 << 20)
        .read(Optional.empty(), driver, new Cancellation());

    assertThat(driver.calls)
        .containsExactly(
            "begin 3",
            "row line 0",
            "row line 1",
            "row line 2",
            "skipped b.log",
            "end",
            "advance t1");
    assertThat(driver.threads).containsOnly(Thread.currentThread().getName());
  }

  @Test
  void aReadAfterALostCheckpointIsTheSourcesOwnOnTheReadingThread() throws Exception {
    RowSource source =
        new RowSource() {
          @Override
          public void read(Optional<Mark> checkpoint, RowSink sink, Cancellation cancellation)
              throws InterruptedException {
            sink.row(row(0));
          }

          @Override
          public void readAfterLostCheckpoint(RowSink sink, Cancellation cancellation)
              throws InterruptedException {
            sink.row(row(Thread.currentThread().getName().equals("dfe-read-ahead-test") ? 1 : 2));
          }
        };
    Recording driver = new Recording();

    new ReadAhead(source, "dfe-read-ahead-test", 2, 1 << 20)
        .readAfterLostCheckpoint(driver, new Cancellation());

    assertThat(driver.calls).containsExactly("row line 1");
  }

  @Test
  void whatTheSourceThrowsIsThrownAfterEveryCallBeforeIt() {
    SourceException failure = new SourceException("a.log:3: not valid JSON");
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          sink.row(row(0));
          sink.row(row(1));
          throw failure;
        };
    Recording driver = new Recording();

    assertThatThrownBy(
            () ->
                new ReadAhead(source, "dfe-read-ahead-test", 8, 1 << 20)
                    .read(Optional.empty(), driver, new Cancellation()))
        .isSameAs(failure);
    assertThat(driver.calls).containsExactly("row line 0", "row line 1");
  }

  @Test
  void aDriverThatFailsStopsTheSourceAndItsFailureIsThrown() {
    IllegalStateException refused = new IllegalStateException("the transport refused");
    AtomicReference<Throwable> sourceSaw = new AtomicReference<>();
    AtomicInteger handed = new AtomicInteger();
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          try {
            for (int n = 0; ; n++) {
              sink.row(row(n));
              handed.incrementAndGet();
            }
          } catch (InterruptedException e) {
            sourceSaw.set(e);
            throw e;
          }
        };
    RowSink driver =
        new Recording() {
          @Override
          public void row(Row row) throws InterruptedException {
            if (row.origin().equals("line 5")) {
              throw refused;
            }
            super.row(row);
          }
        };

    assertThatThrownBy(
            () ->
                new ReadAhead(source, "dfe-read-ahead-test", 4, 1 << 20)
                    .read(Optional.empty(), driver, new Cancellation()))
        .isSameAs(refused);
    // read() returned only once the source's thread ended, stopped by its next call.
    assertThat(sourceSaw.get()).isInstanceOf(InterruptedException.class);
    assertThat(((Recording) driver).calls).hasSize(5);
    assertThat(handed.get()).isLessThanOrEqualTo(5 + 2 * 4);
  }

  @Test
  void aSourceWaitingForItsRowsToLandWaitsUntilTheDriverMadeThatCall() throws Exception {
    AtomicBoolean landed = new AtomicBoolean();
    AtomicBoolean sawLanded = new AtomicBoolean();
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          sink.row(row(0));
          sink.awaitLanded();
          sawLanded.set(landed.get());
          sink.advance(new CursorTokenMark("acked"));
        };
    Recording driver =
        new Recording() {
          @Override
          public void awaitLanded() {
            super.awaitLanded();
            landed.set(true);
          }
        };

    new ReadAhead(source, "dfe-read-ahead-test", 64, 1 << 20)
        .read(Optional.empty(), driver, new Cancellation());

    assertThat(sawLanded).isTrue();
    assertThat(driver.calls).containsExactly("row line 0", "landed", "advance acked");
  }

  /** A driver that makes no row before {@code release} opens. */
  private static Recording heldUntil(CountDownLatch release) {
    return new Recording() {
      @Override
      public void row(Row row) throws InterruptedException {
        release.await();
        super.row(row);
      }
    };
  }

  /**
   * Reads {@code source} into {@code driver} through a read-ahead of that size, on a new thread.
   */
  private static Thread drive(RowSource source, int calls, long bytes, Recording driver) {
    Thread driving =
        new Thread(
            () -> {
              try {
                new ReadAhead(source, "dfe-read-ahead-test", calls, bytes)
                    .read(Optional.empty(), driver, new Cancellation());
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    driving.start();
    return driving;
  }

  /** Waits until the reading thread is parked: the read-ahead's buffer holds it back. */
  private static void awaitWaiting(AtomicReference<Thread> reading) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> reading.get() != null && reading.get().getState() == Thread.State.WAITING);
  }

  @Test
  void aSourceIsHeldBackByTheBufferWhileTheDriverIsBusy() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger handed = new AtomicInteger();
    AtomicReference<Thread> reading = new AtomicReference<>();
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          reading.set(Thread.currentThread());
          for (int n = 0; n < 1000; n++) {
            sink.row(row(n));
            handed.incrementAndGet();
          }
        };
    Recording driver = heldUntil(release);
    Thread driving = drive(source, 10, 1 << 20, driver);
    awaitWaiting(reading);
    // One batch being made by the driver, one buffer full behind it.
    assertThat(handed.get()).isBetween(10, 20);
    release.countDown();
    driving.join(10_000);

    assertThat(driving.isAlive()).isFalse();
    assertThat(driver.calls).hasSize(1000);
    assertThat(handed.get()).isEqualTo(1000);
  }

  @Test
  void rowsAreHeldBackByTheirBytesToo() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger handed = new AtomicInteger();
    AtomicReference<Thread> reading = new AtomicReference<>();
    String big = "x".repeat(1000);
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          reading.set(Thread.currentThread());
          for (int n = 0; n < 100; n++) {
            sink.row(new Row(RawRecord.of("\"" + big + "\""), 0, Optional.empty(), "r" + n));
            handed.incrementAndGet();
          }
        };
    Recording driver = heldUntil(release);
    Thread driving = drive(source, 1000, 3_000, driver);
    awaitWaiting(reading);
    // Rows of 1,002 bytes under 3,000 bytes: two a buffer, one buffer made, one full.
    assertThat(handed.get()).isBetween(2, 4);
    release.countDown();
    driving.join(10_000);

    assertThat(driver.calls).hasSize(100);
  }

  @Test
  void interruptingTheDriverInterruptsTheSource() throws Exception {
    AtomicReference<Throwable> sourceSaw = new AtomicReference<>();
    CountDownLatch sourceBlocked = new CountDownLatch(1);
    RowSource source =
        (checkpoint, sink, cancellation) -> {
          try {
            sourceBlocked.countDown();
            new CountDownLatch(1).await(); // blocks as a source waiting for its file would
          } catch (InterruptedException e) {
            sourceSaw.set(e);
            throw e;
          }
        };
    AtomicReference<Throwable> readThrew = new AtomicReference<>();
    Thread driving =
        new Thread(
            () -> {
              try {
                new ReadAhead(source, "dfe-read-ahead-test", 10, 1 << 20)
                    .read(Optional.empty(), new Recording(), new Cancellation());
              } catch (Throwable e) {
                readThrew.set(e);
              }
            });
    driving.start();
    sourceBlocked.await();

    driving.interrupt();
    driving.join(10_000);

    assertThat(readThrew.get()).isInstanceOf(InterruptedException.class);
    assertThat(sourceSaw.get()).isInstanceOf(InterruptedException.class);
  }
}
