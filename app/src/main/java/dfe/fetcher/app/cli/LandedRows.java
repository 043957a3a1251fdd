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
 * dfe_fetcher_records_total}).
 *
 * <p>The total, when some unit's dump announced its row count ({@code count_first}): the counts
 * announced, plus what the other units have landed so far (they count as done as far as they got),
 * so the share and the ETA are those of the counted dumps.
 *
 * <p>Bytes, when some unit's source announced the input it was about to read (a file dump: the
 * sizes of its files): what those sources have read of it, against the sizes announced, so the
 * share and the ETA are in bytes, and a file dump's line ends with its files read.
 */
final class LandedRows {

  // The registry names a counter without its _total suffix.
  private static final String ROWS = withoutTotal(MetricNames.SNAPSHOT_ROWS);
  private static final String RECORDS = withoutTotal(MetricNames.RECORDS);

  private LandedRows() {}

  static Reading reading(PrometheusRegistry registry, Map<String, Long> announced) {
    return reading(registry, announced, Map.of(), Map.of());
  }

  static Reading reading(
      PrometheusRegistry registry,
      Map<String, Long> announced,
      Map<String, Long> inputAhead,
      Map<String, Long> inputRead) {
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
    Map<String, Double> landedByUnit = new HashMap<>(dumpRows);
    records.forEach(landedByUnit::putIfAbsent);
    double landed = 0;
    double total = 0;
    for (Map.Entry<String, Double> unit : landedByUnit.entrySet()) {
      landed += unit.getValue();
      if (!announced.containsKey(unit.getKey())) {
        total += unit.getValue();
      }
    }
    for (long count : announced.values()) {
      total += count;
    }
    OptionalLong totalRows =
        announced.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Math.round(total));
    if (inputAhead.isEmpty()) {
      return Reading.ofRows(Math.round(landed), totalRows);
    }
    long ahead = inputAhead.values().stream().mapToLong(Long::longValue).sum();
    long read = inputRead.values().stream().mapToLong(Long::longValue).sum();
    return new Reading(
        Math.round(landed), OptionalLong.of(read), totalRows, OptionalLong.of(ahead));
  }

  private static String withoutTotal(String name) {
    return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
  }
}
