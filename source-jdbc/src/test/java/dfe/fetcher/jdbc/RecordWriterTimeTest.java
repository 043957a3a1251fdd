package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written time and UTC formatting agrees with java.time's, at every scale. */
class RecordWriterTimeTest {

  /** What the writer must produce, spelled with java.time and String.format. */
  private static String expectedTime(LocalTime value, int scale) {
    int nanos = value.getNano();
    int needed = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1000 == 0 ? 6 : 9;
    int digits = Math.min(9, Math.max(scale, needed));
    String base =
        String.format("%02d:%02d:%02d", value.getHour(), value.getMinute(), value.getSecond());
    return digits == 0 ? base : base + "." + String.format("%09d", nanos).substring(0, digits);
  }

  @Test
  void timesAndInstantsMatchTheReferenceAtEveryScale() {
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      long seconds = random.nextLong(-62_000_000_000L, 260_000_000_000L);
      int nanos =
          switch (i % 4) {
            case 0 -> 0;
            case 1 -> random.nextInt(1000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1000;
            default -> random.nextInt(1_000_000_000);
          };
      Instant instant = Instant.ofEpochSecond(seconds, nanos);
      int scale = i % 10;
      LocalDateTime local = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);

      assertThat(TimeText.time(local.toLocalTime(), scale))
          .isEqualTo(expectedTime(local.toLocalTime(), scale));
      assertThat(TimeText.utc(instant, scale))
          .isEqualTo(
              local.toLocalDate().format(DateTimeFormatter.ISO_LOCAL_DATE)
                  + "T"
                  + expectedTime(local.toLocalTime(), scale)
                  + "Z");
    }
  }

  @Test
  void yearsPastFourDigitsKeepIsosSign() {
    assertThat(TimeText.utc(Instant.parse("+10000-01-01T00:00:00Z"), 0))
        .isEqualTo("+10000-01-01T00:00:00Z");
    assertThat(TimeText.utc(Instant.parse("-0001-12-31T23:59:59.5Z"), 3))
        .isEqualTo("-0001-12-31T23:59:59.500Z");
  }
}
