package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A tick starts only while the worker polls: a paused task (not polled) fetches nothing new. */
class PollActivityTest {

  /** A clock tests move by hand. */
  private static final class HandClock extends Clock {
    private volatile Instant now = Instant.parse("2026-12-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

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
  }

  @Test
  void aTaskNotYetPolledOrNoLongerPolledHoldsItsTicks() {
    HandClock clock = new HandClock();
    PollActivity polls = new PollActivity(clock);

    assertThat(polls.polledRecently()).as("before the first poll").isFalse();
    polls.polled();
    assertThat(polls.polledRecently()).isTrue();
    clock.advance(PollActivity.RECENT.plusMillis(1));
    assertThat(polls.polledRecently()).as("polls stopped: paused").isFalse();
  }

  @Test
  void aWaitingLoopGoesOnAtThePollAfterAPause() throws Exception {
    HandClock clock = new HandClock();
    PollActivity polls = new PollActivity(clock);
    CompletableFuture<Boolean> waited =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return polls.awaitPolling(() -> false);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });

    assertThat(waited).isNotDone();
    polls.polled();

    assertThat(waited.get(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aStopEndsTheWait() throws Exception {
    PollActivity polls = new PollActivity(new HandClock());
    AtomicBoolean stopping = new AtomicBoolean();
    CompletableFuture<Boolean> waited =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return polls.awaitPolling(stopping::get);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });

    stopping.set(true);
    polls.wake();

    assertThat(waited.get(5, TimeUnit.SECONDS)).isFalse();
  }
}
