package dfe.fetcher.app.cli;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.snapshots.progress.Reading;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The rows {@code run --once} has landed so far, read from the service's own counters, so the tick
 * counts nothing more for a progress line: per unit, its dump row frames ({@code
 * dfe_fetcher_snapshot_rows_total}), or for a unit without dumps the records it landed ({@code
 * dfe_fetcher_records_total}). The service keeps no byte count and no total of what a tick will
 * read, so the line shows rows and their rate, with no ETA.
 */
final class LandedRows {

  // The registry names a counter without its _total suffix.
  private static final String ROWS = withoutTotal(MetricNames.SNAPSHOT_ROWS);
  private static final String RECORDS = withoutTotal(MetricNames.RECORDS);

  private LandedRows() {}

  static Reading reading(PrometheusRegistry registry) {
    Map<String, Double> dumpRows = new HashMap<>();
    Map<String, Double> records = new HashMap<>();
    for (MetricSnapshot metric :
        registry.scrape(name -> name.equals(ROWS) || name.equals(RECORDS))) {
      boolean rows = metric.getMetadata().getName().equals(ROWS);
      for (DataPointSnapshot point : metric.getDataPoints()) {
        if (point instanceof CounterSnapshot.CounterDataPointSnapshot counter) {
          String unit = point.getLabels().get(rows ? "store" : "source");
          (rows ? dumpRows : records).merge(unit, counter.getValue(), Double::sum);
        }
      }
    }
    double landed = 0;
    for (Map.Entry<String, Double> unit : records.entrySet()) {
      landed += dumpRows.getOrDefault(unit.getKey(), unit.getValue());
    }
    for (Map.Entry<String, Double> unit : dumpRows.entrySet()) {
      if (!records.containsKey(unit.getKey())) {
        landed += unit.getValue();
      }
    }
    return Reading.ofRows(Math.round(landed), OptionalLong.empty());
  }

  private static String withoutTotal(String name) {
    return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
  }
}
