package dfe.fetcher.rest.construct;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.WindowMark;
import org.junit.jupiter.api.Test;

class ItemOrderTest {

  private static int compare(String key, String position, String otherKey, String otherPosition) {
    return ItemOrder.compare(
        new WindowMark.Item(key, position), new WindowMark.Item(otherKey, otherPosition));
  }

  @Test
  void numbersCompareAsNumbersNotAsText() {
    assertThat(compare("a", "9", "a", "10")).isNegative();
    assertThat(compare("a", "1.50", "a", "1.5")).isZero();
  }

  @Test
  void timesCompareAsTimesWhateverTheirOffset() {
    assertThat(compare("a", "2026-12-01T09:00:00+01:00", "a", "2026-12-01T08:30:00Z")).isNegative();
    assertThat(compare("a", "2026-12-01T08:30:00", "a", "2026-12-01T08:30:00Z")).isZero();
    assertThat(compare("a", "2026-12-01T08:30:00.5Z", "a", "2026-12-01T08:30:00Z")).isPositive();
  }

  @Test
  void otherPositionsCompareAsTextAndEqualPositionsByKey() {
    assertThat(compare("a", "b", "a", "c")).isNegative();
    assertThat(compare("x", "2026-12-01T08:30:00Z", "y", "2026-12-01T08:30:00Z")).isNegative();
    assertThat(compare("y", "7", "x", "7")).isPositive();
    assertThat(compare("x", "7", "x", "7")).isZero();
  }
}
