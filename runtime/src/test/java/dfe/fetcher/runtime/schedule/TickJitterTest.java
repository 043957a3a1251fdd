package dfe.fetcher.runtime.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code scheduler.jitter_percent}: a fixed, bounded shift per connection. */
class TickJitterTest {

  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

  @Test
  void withoutJitterEveryConnectionStartsWhenScheduled() {
    assertThat(TickJitter.NONE.offset("inventory", FIVE_MINUTES)).isZero();
  }

  @Test
  void theSameConnectionGetsTheSameShiftEveryTime() {
    Duration first = new TickJitter(20).offset("inventory", FIVE_MINUTES);
    Duration again = new TickJitter(20).offset("inventory", FIVE_MINUTES);

    assertThat(again).isEqualTo(first);
  }

  @Test
  void aShiftStaysBelowThePercentOfTheInterval() {
    TickJitter jitter = new TickJitter(10);
    List<Duration> shifts =
        IntStream.range(0, 1000).mapToObj(i -> jitter.offset("conn-" + i, FIVE_MINUTES)).toList();

    assertThat(shifts).allSatisfy(shift -> assertThat(shift).isBetween(Duration.ZERO, seconds(30)));
    assertThat(shifts.stream().filter(shift -> shift.compareTo(seconds(29)) >= 0))
        .as("the spread reaches the top of its range")
        .isNotEmpty();
  }

  @Test
  void manyConnectionsOnOneIntervalAreSpreadOverTheWholeShare() {
    TickJitter jitter = new TickJitter(50);
    Set<Long> tenthsOfTheSpread = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      long millis = jitter.offset("store-" + i, FIVE_MINUTES).toMillis();
      tenthsOfTheSpread.add(millis * 10 / 150_000);
    }

    assertThat(tenthsOfTheSpread).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
  }

  @Test
  void aPercentOutsideZeroToFiftyIsRefused() {
    assertThatThrownBy(() -> new TickJitter(51))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jitter percent must be 0 to 50, was 51");
    assertThatThrownBy(() -> new TickJitter(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
