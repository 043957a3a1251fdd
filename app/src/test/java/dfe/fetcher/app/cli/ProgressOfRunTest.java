package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.snapshots.progress.Reading;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What {@code run --once}'s progress line counts, read from the service's own counters. */
class ProgressOfRunTest {

  private final FetcherMetrics metrics = new FetcherMetrics();

  private Reading reading() {
    return LandedRows.reading(metrics.registry(), metrics.announcedRows());
  }

  @Test
  void aDumpCountsItsRowFramesAndATailTheRecordsItLanded() {
    metrics.rowFrames("inventory.hosts", 300);
    // A dump's begin and end frames land too: they are not rows.
    metrics.landed("inventory.hosts", "inventory-hosts_land", 302);
    metrics.landed("app.log", "app-log_land", 40);

    assertThat(reading()).isEqualTo(Reading.ofRows(340, OptionalLong.empty()));
  }

  @Test
  void aCountTheDumpAnnouncedIsTheTotalAndOtherUnitsCountAsFarAsTheyGot() {
    metrics.partBegun("crm.accounts", OptionalLong.of(1000));
    metrics.rowFrames("crm.accounts", 250);
    metrics.partBegun("inventory.hosts", OptionalLong.empty());
    metrics.rowFrames("inventory.hosts", 50);

    assertThat(reading()).isEqualTo(Reading.ofRows(300, OptionalLong.of(1050)));
  }

  @Test
  void aDumpThatAnnouncedACountBeforeItsFirstRowCountsItsWholeCount() {
    metrics.partBegun("crm.accounts", OptionalLong.of(400));
    metrics.partBegun("crm.contacts", OptionalLong.of(100));
    metrics.rowFrames("crm.contacts", 100);

    assertThat(reading()).isEqualTo(Reading.ofRows(100, OptionalLong.of(500)));
  }
}
