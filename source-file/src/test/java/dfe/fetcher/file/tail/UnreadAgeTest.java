package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UnreadAgeTest {

  private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

  @Test
  void theAgeIsOfTheFirstObservationThatHeldTheByteAtTheOffset() {
    UnreadAge age = new UnreadAge();
    age.observe(100, T0);
    age.observe(250, T0.plusSeconds(10));
    age.observe(400, T0.plusSeconds(20));

    assertThat(age.at(99, T0.plusSeconds(30))).isEqualTo(Duration.ofSeconds(30));
    assertThat(age.at(100, T0.plusSeconds(30))).isEqualTo(Duration.ofSeconds(20));
    assertThat(age.at(399, T0.plusSeconds(30))).isEqualTo(Duration.ofSeconds(10));
    assertThat(age.at(400, T0.plusSeconds(30))).isEqualTo(Duration.ZERO);
  }

  @Test
  void aTruncatedFileForgetsWhatItHeld() {
    UnreadAge age = new UnreadAge();
    age.observe(500, T0);
    age.observe(20, T0.plusSeconds(50));

    assertThat(age.at(0, T0.plusSeconds(60))).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void pastItsLastStepNewBytesAreDatedByTheNewestKeptOneSoNeverYounger() {
    UnreadAge age = new UnreadAge();
    for (int i = 1; i <= UnreadAge.MAX_STEPS; i++) {
      age.observe(i * 10L, T0.plusSeconds(i));
    }
    age.observe(10_000, T0.plusSeconds(1000));

    Instant now = T0.plusSeconds(2000);
    int last = UnreadAge.MAX_STEPS;
    assertThat(age.at(last * 10L - 11, now))
        .as("a step kept as it was")
        .isEqualTo(Duration.ofSeconds(2000 - (last - 1)));
    assertThat(age.at(last * 10L - 10, now))
        .as("the newest step took the new bytes in, with its own time")
        .isEqualTo(Duration.ofSeconds(2000 - last));
    assertThat(age.at(9_999, now)).isEqualTo(Duration.ofSeconds(2000 - last));
    assertThat(age.at(10_000, now)).isEqualTo(Duration.ZERO);
  }

  @Test
  void aModificationTimeInTheFutureCountsAsNotOld() {
    UnreadAge age = new UnreadAge();
    age.observe(10, T0.plusSeconds(60));

    assertThat(age.at(0, T0)).isEqualTo(Duration.ZERO);
  }
}
