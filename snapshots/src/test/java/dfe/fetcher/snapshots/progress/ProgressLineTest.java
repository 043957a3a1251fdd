package dfe.fetcher.snapshots.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

  @Test
  void bytesAreWrittenInPowersOf1024WithOneDecimal() {
    assertThat(ProgressLine.bytes(0)).isEqualTo("0 B");
    assertThat(ProgressLine.bytes(1023)).isEqualTo("1023 B");
    assertThat(ProgressLine.bytes(1024)).isEqualTo("1.0 KiB");
    assertThat(ProgressLine.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(ProgressLine.bytes(3_565_158)).isEqualTo("3.4 MiB");
    assertThat(ProgressLine.bytes(5L << 30)).isEqualTo("5.0 GiB");
  }

  @Test
  void aSizeJustUnderTheNextUnitIsWrittenInTheNextUnit() {
    assertThat(ProgressLine.bytes(1024 * 1024 - 1)).isEqualTo("1.0 MiB");
    assertThat(ProgressLine.bytes(1_048_000)).isEqualTo("1023.4 KiB");
  }

  @Test
  void ratesHaveOneDecimalBelowTenAndSeparatorsAbove() {
    assertThat(ProgressLine.rate(2.54)).isEqualTo("2.5");
    assertThat(ProgressLine.rate(0)).isEqualTo("0.0");
    assertThat(ProgressLine.rate(12.5)).isEqualTo("13");
    assertThat(ProgressLine.rate(1_234_567.4)).isEqualTo("1,234,567");
  }

  @Test
  void theEtaIsWhatIsLeftAtTheRateSoFar() {
    // 250 of 1000 in 10 s: 750 left at 25/s is 30 s.
    assertThat(ProgressLine.eta(new Reading.Share(250, 1000), Duration.ofSeconds(10)))
        .contains(Duration.ofSeconds(30));
    assertThat(ProgressLine.eta(new Reading.Share(1000, 1000), Duration.ofSeconds(10)))
        .contains(Duration.ZERO);
    assertThat(ProgressLine.eta(new Reading.Share(1200, 1000), Duration.ofSeconds(10)))
        .contains(Duration.ZERO);
  }

  @Test
  void thereIsNoEtaBeforeAnythingWasDone() {
    assertThat(ProgressLine.eta(new Reading.Share(0, 1000), Duration.ofSeconds(3))).isEmpty();
    assertThat(ProgressLine.eta(new Reading.Share(10, 1000), Duration.ZERO)).isEmpty();
  }

  @Test
  void clocksAreMinutesAndSecondsUnderAnHour() {
    assertThat(ProgressLine.clock(Duration.ofSeconds(5))).isEqualTo("0:05");
    assertThat(ProgressLine.clock(Duration.ofSeconds(65))).isEqualTo("1:05");
    assertThat(ProgressLine.clock(Duration.ofSeconds(3723))).isEqualTo("1:02:03");
  }

  @Test
  void aLineWithAByteTotalShowsShareBytesRatesAndEta() {
    Reading reading = Reading.ofBytes(12_345, 2L << 20, OptionalLong.of(8L << 20));

    String line = ProgressLine.render("verify", reading, Duration.ofSeconds(4), 200);

    assertThat(line)
        .isEqualTo(
            "verify   25%  12,345 rows  2.0 MiB/8.0 MiB  3,086 rows/s  512.0 KiB/s  ETA 0:12");
  }

  @Test
  void aLineWithoutTotalShowsNoShareAndNoEta() {
    Reading reading = Reading.ofBytes(40, 2048, OptionalLong.empty());

    assertThat(ProgressLine.render("diff", reading, Duration.ofSeconds(8), 200))
        .isEqualTo("diff  40 rows  2.0 KiB  5.0 rows/s  256 B/s");
  }

  @Test
  void aRowTotalGivesTheShareAndEtaInRows() {
    Reading reading = Reading.ofRows(300, OptionalLong.of(1200));

    assertThat(ProgressLine.render("run", reading, Duration.ofSeconds(3), 200))
        .isEqualTo("run   25%  300/1,200 rows  100 rows/s  ETA 0:09");
  }

  @Test
  void aRowsOnlyLineAtTheStartHasNoRate() {
    assertThat(
            ProgressLine.render("run", Reading.ofRows(0, OptionalLong.empty()), Duration.ZERO, 200))
        .isEqualTo("run  0 rows");
  }

  @Test
  void theLineIsCutToTheTerminalWidth() {
    Reading reading = Reading.ofBytes(12_345, 2L << 20, OptionalLong.of(8L << 20));

    assertThat(ProgressLine.render("verify", reading, Duration.ofSeconds(4), 20))
        .isEqualTo("verify   25%  12,345");
  }

  @Test
  void theTransferSumsTheSizesOfTheFilesToRead() {
    Transfer transfer = new Transfer();
    assertThat(transfer.reading().totalBytes()).isEmpty();

    transfer.expect(100);
    transfer.expect(50);
    transfer.read(60);
    transfer.row();
    transfer.row();

    assertThat(transfer.reading()).isEqualTo(Reading.ofBytes(2, 60, OptionalLong.of(150)));
  }

  @Test
  void autoShowsProgressOnlyWhenTheLauncherSaysStderrIsATerminal() {
    Properties terminal = new Properties();
    terminal.setProperty(ProgressMode.STDERR_IS_TERMINAL, "true");

    assertThat(ProgressSetting.of(Map.of(), terminal).shows()).isTrue();
    assertThat(ProgressSetting.of(Map.of(), new Properties()).shows()).isFalse();
    assertThat(ProgressSetting.of(Map.of("DFE_FETCHER_PROGRESS", "never"), terminal).shows())
        .isFalse();
    assertThat(
            ProgressSetting.of(Map.of("DFE_FETCHER_PROGRESS", "always"), new Properties()).shows())
        .isTrue();
  }

  @Test
  void theOptionWinsOverTheVariable() {
    ProgressSetting setting =
        ProgressSetting.of(Map.of("DFE_FETCHER_PROGRESS", "always"), new Properties());

    setting.choose(ProgressMode.NEVER);

    assertThat(setting.shows()).isFalse();
  }

  @Test
  void aVariableNamingNoModeIsRefusedSayingWhatItHolds() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ProgressSetting.of(Map.of("DFE_FETCHER_PROGRESS", "sometimes"), new Properties()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "DFE_FETCHER_PROGRESS=sometimes: not a progress mode; use auto, always or never");
  }
}
