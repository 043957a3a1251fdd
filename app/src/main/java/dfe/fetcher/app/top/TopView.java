package dfe.fetcher.app.top;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.snapshots.progress.ProgressLine;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The rows {@code dfe-fetcher top} shows, one per unit, from one scrape and the one before it: when
 * the unit last succeeded, the rows per second it landed between the two (its dump row frames, or
 * for a unit without dumps the records it landed), how its last snapshot ended, its checkpoint age
 * and its tick failures (with those since the last refresh). A snapshot's outcome is the status
 * whose counter moved last; before any moved while watched, the only status counted so far, else
 * {@code -}. Keeps those outcomes from refresh to refresh; one instance per screen.
 */
public final class TopView {

  static final List<String> HEADER =
      List.of("UNIT", "LAST SUCCESS", "ROWS/S", "LAST SNAPSHOT", "CHECKPOINT AGE", "FAILURES");
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Map<String, String> lastSnapshot = new HashMap<>();
  private Optional<Scrape> previous = Optional.empty();

  /** The table for {@code now}: the header, then one row per unit in name order. */
  public List<List<String>> update(Scrape now) {
    List<List<String>> table = new ArrayList<>();
    table.add(HEADER);
    for (String unit : units(now)) {
      table.add(
          List.of(
              unit,
              lastSuccess(now, unit),
              rowsPerSecond(now, unit),
              snapshotOutcome(now, unit),
              now.sum(MetricNames.CHECKPOINT_AGE, "source", unit)
                  .map(seconds -> span(Math.round(seconds)))
                  .orElse("-"),
              failures(now, unit)));
    }
    previous = Optional.of(now);
    return table;
  }

  /** Whether the fetcher says it is ready ({@code dfe_fetcher_ready}), when it says. */
  public static Optional<Boolean> ready(Scrape scrape) {
    return scrape.samples().stream()
        .filter(sample -> sample.name().equals(MetricNames.READY))
        .findFirst()
        .map(sample -> sample.value() == 1.0);
  }

  /** Every unit any of the series this view reads names. */
  private static TreeSet<String> units(Scrape scrape) {
    TreeSet<String> units = new TreeSet<>();
    for (MetricSample sample : scrape.samples()) {
      String name = sample.name();
      if (name.equals(MetricNames.UNIT_INTERVAL)
          || name.equals(MetricNames.LAST_SUCCESS)
          || name.equals(MetricNames.CHECKPOINT_AGE)
          || name.equals(MetricNames.TICK_FAILURES)
          || name.equals(MetricNames.RECORDS)) {
        Optional.ofNullable(sample.label("source")).ifPresent(units::add);
      } else if (name.equals(MetricNames.SNAPSHOTS) || name.equals(MetricNames.SNAPSHOT_ROWS)) {
        Optional.ofNullable(sample.label("store")).ifPresent(units::add);
      }
    }
    return units;
  }

  private static String lastSuccess(Scrape now, String unit) {
    Optional<Double> seconds = now.sum(MetricNames.LAST_SUCCESS, "source", unit);
    if (seconds.isEmpty() || seconds.get() <= 0 || seconds.get().isNaN()) {
      return "never";
    }
    Instant at = Instant.ofEpochMilli(Math.round(seconds.get() * 1000));
    long ago = Math.max(0, Duration.between(at, now.at()).toSeconds());
    return CLOCK.format(at) + " (" + span(ago) + " ago)";
  }

  private String rowsPerSecond(Scrape now, String unit) {
    if (previous.isEmpty()) {
      return "-";
    }
    double seconds = Duration.between(previous.get().at(), now.at()).toMillis() / 1000.0;
    if (seconds <= 0) {
      return "-";
    }
    double landed = rows(now, unit) - rows(previous.get(), unit);
    // A counter that went down belongs to a restarted fetcher: its rows since the restart.
    double delta = landed < 0 ? rows(now, unit) : landed;
    return ProgressLine.rate(delta / seconds);
  }

  private static double rows(Scrape scrape, String unit) {
    return scrape
        .sum(MetricNames.SNAPSHOT_ROWS, "store", unit)
        .or(() -> scrape.sum(MetricNames.RECORDS, "source", unit))
        .orElse(0.0);
  }

  private String snapshotOutcome(Scrape now, String unit) {
    double complete =
        now.value(MetricNames.SNAPSHOTS, "store", unit, "status", "complete").orElse(0.0);
    double aborted =
        now.value(MetricNames.SNAPSHOTS, "store", unit, "status", "aborted").orElse(0.0);
    if (previous.isPresent()) {
      double completeBefore =
          previous
              .get()
              .value(MetricNames.SNAPSHOTS, "store", unit, "status", "complete")
              .orElse(0.0);
      double abortedBefore =
          previous
              .get()
              .value(MetricNames.SNAPSHOTS, "store", unit, "status", "aborted")
              .orElse(0.0);
      if (aborted > abortedBefore) {
        lastSnapshot.put(unit, "aborted");
      } else if (complete > completeBefore) {
        lastSnapshot.put(unit, "complete");
      }
    }
    if (!lastSnapshot.containsKey(unit)) {
      if (complete > 0 && aborted == 0) {
        return "complete";
      }
      if (aborted > 0 && complete == 0) {
        return "aborted";
      }
      return "-";
    }
    return lastSnapshot.get(unit);
  }

  private String failures(Scrape now, String unit) {
    double failures = now.sum(MetricNames.TICK_FAILURES, "source", unit).orElse(0.0);
    double before =
        previous
            .flatMap(scrape -> scrape.sum(MetricNames.TICK_FAILURES, "source", unit))
            .orElse(0.0);
    long total = Math.round(failures);
    long recent = Math.round(failures - before);
    return previous.isPresent() && recent > 0 ? total + " (+" + recent + ")" : Long.toString(total);
  }

  /** {@code 42s}, {@code 3m10s}, {@code 2h5m}, {@code 1d3h}: as {@code status} writes ages too. */
  public static String span(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
    }
    if (seconds < 86400) {
      return seconds / 3600 + "h" + (seconds % 3600 / 60 == 0 ? "" : seconds % 3600 / 60 + "m");
    }
    return seconds / 86400
        + "d"
        + (seconds % 86400 / 3600 == 0 ? "" : seconds % 86400 / 3600 + "h");
  }
}
