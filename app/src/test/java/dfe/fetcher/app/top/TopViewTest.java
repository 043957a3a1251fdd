package dfe.fetcher.app.top;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopViewTest {

  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");

  private static Scrape scrape(Instant at, String text) throws IOException {
    return new Scrape(at, PrometheusText.parse(new StringReader(text)));
  }

  private static String dump(long rows, long complete, long aborted, long failures) {
    return """
        dfe_fetcher_unit_interval_seconds{source="inventory.hosts"} 60.0
        dfe_fetcher_snapshot_rows_total{store="inventory.hosts"} %d.0
        dfe_fetcher_records_total{source="inventory.hosts",topic="inventory-hosts_land"} 9999.0
        dfe_fetcher_snapshots_total{status="complete",store="inventory.hosts"} %d.0
        dfe_fetcher_snapshots_total{status="aborted",store="inventory.hosts"} %d.0
        dfe_fetcher_tick_failures_total{source="inventory.hosts"} %d.0
        dfe_fetcher_last_success_timestamp_seconds{source="inventory.hosts"} 1777636790.5
        dfe_fetcher_checkpoint_age_seconds{source="inventory.hosts"} 190.2
        dfe_fetcher_ready 1.0
        """
        .formatted(rows, complete, aborted, failures);
  }

  @Test
  void theFirstRefreshShowsEachUnitWithoutARate() throws IOException {
    List<List<String>> table = new TopView().update(scrape(T0, dump(100, 2, 0, 0)));

    assertThat(table)
        .containsExactly(
            TopView.HEADER,
            List.of("inventory.hosts", "11:59:50 (9s ago)", "-", "complete", "3m10s", "0"));
  }

  @Test
  void theRateIsTheRowsLandedBetweenTwoRefreshesOverTheTimeBetween() throws IOException {
    TopView view = new TopView();
    view.update(scrape(T0, dump(100, 2, 0, 0)));

    List<List<String>> table = view.update(scrape(T0.plusSeconds(2), dump(2600, 3, 0, 0)));

    assertThat(table.get(1).get(2)).isEqualTo("1,250");
  }

  @Test
  void aUnitWithoutDumpsIsRatedByTheRecordsItLanded() throws IOException {
    String tail =
        """
        dfe_fetcher_records_total{source="app.log",topic="t"} %d.0
        dfe_fetcher_tick_failures_total{source="app.log"} 0.0
        """;
    TopView view = new TopView();
    view.update(scrape(T0, tail.formatted(10)));

    List<List<String>> table = view.update(scrape(T0.plusSeconds(4), tail.formatted(20)));

    assertThat(table.get(1)).containsExactly("app.log", "never", "2.5", "-", "-", "0");
  }

  @Test
  void theLastSnapshotIsTheStatusWhoseCounterMovedLast() throws IOException {
    TopView view = new TopView();
    assertThat(view.update(scrape(T0, dump(0, 1, 1, 0))).get(1).get(3)).isEqualTo("-");

    assertThat(view.update(scrape(T0.plusSeconds(2), dump(0, 1, 2, 1))).get(1).get(3))
        .isEqualTo("aborted");
    assertThat(view.update(scrape(T0.plusSeconds(4), dump(0, 1, 2, 1))).get(1).get(3))
        .isEqualTo("aborted");
    assertThat(view.update(scrape(T0.plusSeconds(6), dump(0, 2, 2, 1))).get(1).get(3))
        .isEqualTo("complete");
  }

  @Test
  void failuresShowHowManyCameSinceTheLastRefresh() throws IOException {
    TopView view = new TopView();
    view.update(scrape(T0, dump(0, 1, 0, 3)));

    assertThat(view.update(scrape(T0.plusSeconds(2), dump(0, 1, 0, 5))).get(1).get(5))
        .isEqualTo("5 (+2)");
    assertThat(view.update(scrape(T0.plusSeconds(4), dump(0, 1, 0, 5))).get(1).get(5))
        .isEqualTo("5");
  }

  @Test
  void aCounterThatWentDownIsAFetcherThatRestarted() throws IOException {
    TopView view = new TopView();
    view.update(scrape(T0, dump(5000, 1, 0, 0)));

    assertThat(view.update(scrape(T0.plusSeconds(10), dump(300, 1, 0, 0))).get(1).get(2))
        .isEqualTo("30");
  }

  @Test
  void readinessIsReadFromItsGauge() throws IOException {
    assertThat(TopView.ready(scrape(T0, "dfe_fetcher_ready 0.0\n"))).contains(false);
    assertThat(TopView.ready(scrape(T0, dump(0, 0, 0, 0)))).contains(true);
    assertThat(TopView.ready(scrape(T0, "other 1\n"))).isEmpty();
  }

  @Test
  void spansAreWrittenInTheirLargestUnits() {
    assertThat(TopView.span(42)).isEqualTo("42s");
    assertThat(TopView.span(190)).isEqualTo("3m10s");
    assertThat(TopView.span(7200)).isEqualTo("2h");
    assertThat(TopView.span(97200)).isEqualTo("1d3h");
  }
}
