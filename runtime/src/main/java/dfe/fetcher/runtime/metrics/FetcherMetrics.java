package dfe.fetcher.runtime.metrics;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.TickMetrics;
import dfe.fetcher.runtime.transport.FileOutputEvents;
import dfe.fetcher.source.SourceMetrics;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The fetcher's metrics, registered in one registry under the names of {@link MetricNames}. Labels
 * carry store, topic and reason names only, never a value from a record or a secret.
 */
public final class FetcherMetrics implements SourceMetrics, TickMetrics, FileOutputEvents {

  private final PrometheusRegistry registry;
  private final Counter snapshots;
  private final Counter snapshotRows;
  private final Counter snapshotStubs;
  private final Counter records;
  private final Counter filtered;
  private final Counter filterErrors;
  private final Counter deadLetters;
  private final Histogram tickDuration;
  private final Counter checkpointCommits;
  private final Counter tickFailures;
  private final Counter filesSkipped;
  private final Counter restPages;
  private final Counter restRequests;
  private final Counter restRetries;
  private final Counter restThrottled;
  private final Histogram restRequestDuration;
  private final Counter tailLines;
  private final Counter tailBytes;
  private final Gauge tailFilesWatched;
  private final Gauge tailLag;
  private final Gauge tailLagSeconds;
  private final Counter tailRotations;
  private final Counter outputFileRotations;
  private final Counter outputFilesDeleted;
  private final Gauge apiQuotaRemaining;
  private final Gauge apiQuotaLimit;
  private final Gauge apiQuotaResetSeconds;
  private final Counter restCredentialsWithheld;
  private final UnitFreshness freshness;
  private final ConcurrentHashMap<String, Long> announcedRows = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> inputAhead = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> inputRead = new ConcurrentHashMap<>();

  public FetcherMetrics() {
    this(new PrometheusRegistry());
  }

  public FetcherMetrics(PrometheusRegistry registry) {
    this(registry, Clock.systemUTC());
  }

  /** Metrics on {@code registry} whose ages and times are told by {@code clock}. */
  public FetcherMetrics(PrometheusRegistry registry, Clock clock) {
    this.registry = registry;
    this.freshness = new UnitFreshness(registry, clock);
    snapshots =
        Counter.builder()
            .name(MetricNames.SNAPSHOTS)
            .help("Snapshots closed with an end (complete) and dump ticks that failed before one")
            .labelNames("store", "status")
            .register(registry);
    snapshotRows =
        Counter.builder()
            .name(MetricNames.SNAPSHOT_ROWS)
            .help("Row frames landed (acknowledged); a refused row counts as its oversize stub")
            .labelNames("store")
            .register(registry);
    snapshotStubs =
        Counter.builder()
            .name(MetricNames.SNAPSHOT_ROWS_OVERSIZE)
            .help("Oversize stubs emitted")
            .labelNames("store")
            .register(registry);
    records =
        Counter.builder()
            .name(MetricNames.RECORDS)
            .help("Frames and tail records landed")
            .labelNames("source", "topic")
            .register(registry);
    filtered =
        Counter.builder()
            .name(MetricNames.RECORDS_FILTERED)
            .help("Rows the filter dropped: judged false, or not judged under filter_errors: drop")
            .labelNames("source")
            .register(registry);
    filterErrors =
        Counter.builder()
            .name(MetricNames.FILTER_ERRORS)
            .help("Rows the filter could not judge (a missing field, a failed operation)")
            .labelNames("source")
            .register(registry);
    deadLetters =
        Counter.builder()
            .name(MetricNames.DLQ)
            .help("Entries written to the dead-letter queue")
            .labelNames("source", "reason")
            .register(registry);
    tickDuration =
        Histogram.builder()
            .name(MetricNames.TICK_DURATION)
            .help("Duration of one unit's tick")
            .labelNames("source")
            .classicUpperBounds(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900)
            .register(registry);
    checkpointCommits =
        Counter.builder()
            .name(MetricNames.CHECKPOINT_COMMITS)
            .help("Checkpoints committed")
            .labelNames("source")
            .register(registry);
    tickFailures =
        Counter.builder()
            .name(MetricNames.TICK_FAILURES)
            .help("Unit ticks that failed")
            .labelNames("source")
            .register(registry);
    filesSkipped =
        Counter.builder()
            .name(MetricNames.FILES_SKIPPED)
            .help("Files a dump passed over, once per tick each")
            .labelNames("source", "reason")
            .register(registry);
    restPages =
        Counter.builder()
            .name(MetricNames.REST_PAGES)
            .help("Pages a REST unit fetched")
            .labelNames("source")
            .register(registry);
    restRequests =
        Counter.builder()
            .name(MetricNames.REST_REQUESTS)
            .help("HTTP requests a REST unit sent, retries included, by status class")
            .labelNames("source", "status_class")
            .register(registry);
    restRetries =
        Counter.builder()
            .name(MetricNames.REST_RETRIES)
            .help("Requests a REST unit tried again")
            .labelNames("source")
            .register(registry);
    restThrottled =
        Counter.builder()
            .name(MetricNames.REST_THROTTLED)
            .help("429 answers a REST unit received")
            .labelNames("source")
            .register(registry);
    restRequestDuration =
        Histogram.builder()
            .name(MetricNames.REST_REQUEST_DURATION)
            .help("How long a REST request took until its response started")
            .labelNames("source")
            .classicUpperBounds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
            .register(registry);
    tailLines =
        Counter.builder()
            .name(MetricNames.TAIL_LINES)
            .help("Whole lines a file tail unit read, bad lines included")
            .labelNames("source")
            .register(registry);
    tailBytes =
        Counter.builder()
            .name(MetricNames.TAIL_BYTES)
            .help("Bytes a file tail unit read, line ends included")
            .labelNames("source")
            .register(registry);
    tailFilesWatched =
        Gauge.builder()
            .name(MetricNames.TAIL_FILES_WATCHED)
            .help("Files a file tail unit follows after its last read")
            .labelNames("source")
            .register(registry);
    tailLag =
        Gauge.builder()
            .name(MetricNames.TAIL_LAG_BYTES)
            .help("Bytes of a followed file not read yet (size - offset) after the last read")
            .labelNames("source", "file")
            .register(registry);
    tailLagSeconds =
        Gauge.builder()
            .name(MetricNames.TAIL_LAG_SECONDS)
            .help(
                "How long the oldest unread byte of a followed file has been in it, after the last"
                    + " read; 0 when read to its end")
            .labelNames("source", "file")
            .register(registry);
    tailRotations =
        Counter.builder()
            .name(MetricNames.TAIL_ROTATIONS)
            .help("Rotations a file tail unit saw: rename, truncate, deleted")
            .labelNames("source", "kind")
            .register(registry);
    outputFileRotations =
        Counter.builder()
            .name(MetricNames.OUTPUT_FILE_ROTATIONS)
            .help("Rotations of the file output's live file of a topic")
            .labelNames("topic")
            .register(registry);
    outputFilesDeleted =
        Counter.builder()
            .name(MetricNames.OUTPUT_FILES_DELETED)
            .help("Rotated files of a topic the file output's retention deleted")
            .labelNames("topic")
            .register(registry);
    apiQuotaRemaining =
        Gauge.builder()
            .name(MetricNames.API_QUOTA_REMAINING)
            .help("Requests the API says are left in its rate-limit window, as last reported")
            .labelNames("source")
            .register(registry);
    apiQuotaLimit =
        Gauge.builder()
            .name(MetricNames.API_QUOTA_LIMIT)
            .help("Requests the API says its rate-limit window allows, as last reported")
            .labelNames("source")
            .register(registry);
    apiQuotaResetSeconds =
        Gauge.builder()
            .name(MetricNames.API_QUOTA_RESET_SECONDS)
            .help("Seconds until the API's rate-limit window resets, as last reported")
            .labelNames("source")
            .register(registry);
    restCredentialsWithheld =
        Counter.builder()
            .name(MetricNames.REST_CREDENTIALS_WITHHELD)
            .help("Requests a REST unit sent without credentials (or refused) to another origin")
            .labelNames("source")
            .register(registry);
  }

  /**
   * Creates, at 0, every series the driver moves for {@code unit}, so it is exposed before its
   * first event: records landed on its topic, rows filtered out and not judged, dead letters
   * (reasons {@code oversize} and {@code refused}, or their {@code *_dropped} forms when {@code
   * deadLettersKept} is false), tick failures and durations; for a dump its snapshots (complete and
   * aborted), row frames and oversize stubs; for a unit that commits a checkpoint its commits.
   * Series only a source moves (a REST unit's pages, a file dump's skipped files) appear with their
   * first event.
   */
  public void registerAtZero(BoundUnit unit, boolean deadLettersKept) {
    String store = unit.store();
    records.labelValues(store, unit.topic());
    filtered.labelValues(store);
    filterErrors.labelValues(store);
    String dropped = deadLettersKept ? "" : "_dropped";
    deadLetters.labelValues(store, "oversize" + dropped);
    deadLetters.labelValues(store, "refused" + dropped);
    tickFailures.labelValues(store);
    tickDuration.labelValues(store);
    if (unit.spec().shape() == Shape.DUMP) {
      snapshots.labelValues(store, "complete");
      snapshots.labelValues(store, "aborted");
      snapshotRows.labelValues(store);
      snapshotStubs.labelValues(store);
    }
    if (unit.markKind().isPresent()) {
      checkpointCommits.labelValues(store);
    }
  }

  /**
   * A source's own counters (the REST family's pages, requests, retries, throttles); a name this
   * build does not register is ignored, so a newer source cannot fail a tick on its metrics.
   */
  @Override
  public void increment(String name, String source, Map<String, String> labels) {
    switch (name) {
      case MetricNames.REST_PAGES -> restPages.labelValues(source).inc();
      case MetricNames.REST_REQUESTS ->
          restRequests.labelValues(source, labels.getOrDefault("status_class", "error")).inc();
      case MetricNames.REST_RETRIES -> restRetries.labelValues(source).inc();
      case MetricNames.REST_THROTTLED -> restThrottled.labelValues(source).inc();
      case MetricNames.TAIL_ROTATIONS ->
          tailRotations.labelValues(source, labels.getOrDefault("kind", "rename")).inc();
      case MetricNames.REST_CREDENTIALS_WITHHELD ->
          restCredentialsWithheld.labelValues(source).inc();
      default -> {
        // Not registered by this build.
      }
    }
  }

  /** A source's bulk counters (a file tail's lines and bytes); other names are ignored. */
  @Override
  public void add(String name, String source, Map<String, String> labels, long amount) {
    switch (name) {
      case MetricNames.TAIL_LINES -> tailLines.labelValues(source).inc(amount);
      case MetricNames.TAIL_BYTES -> tailBytes.labelValues(source).inc(amount);
      default -> {
        // Not registered by this build.
      }
    }
  }

  /** A source's gauges (a file tail's files followed and lag per file); others are ignored. */
  @Override
  public void set(String name, String source, Map<String, String> labels, double value) {
    switch (name) {
      case MetricNames.TAIL_FILES_WATCHED -> tailFilesWatched.labelValues(source).set(value);
      case MetricNames.TAIL_LAG_BYTES ->
          tailLag.labelValues(source, labels.getOrDefault("file", "")).set(value);
      case MetricNames.TAIL_LAG_SECONDS ->
          tailLagSeconds.labelValues(source, labels.getOrDefault("file", "")).set(value);
      default -> {
        // Not registered by this build.
      }
    }
  }

  @Override
  public void remove(String name, String source, Map<String, String> labels) {
    switch (name) {
      case MetricNames.TAIL_LAG_BYTES -> tailLag.remove(source, labels.getOrDefault("file", ""));
      case MetricNames.TAIL_LAG_SECONDS ->
          tailLagSeconds.remove(source, labels.getOrDefault("file", ""));
      default -> {
        // Not registered by this build.
      }
    }
  }

  @Override
  public void observeSeconds(String name, String source, double seconds) {
    if (name.equals(MetricNames.REST_REQUEST_DURATION)) {
      restRequestDuration.labelValues(source).observe(seconds);
    }
  }

  /**
   * A source's gauges (a REST unit's quota left, its size, its reset); a name this build does not
   * keep is ignored.
   */
  @Override
  public void set(String name, String source, double value) {
    if (name.equals(MetricNames.API_QUOTA_REMAINING)) {
      apiQuotaRemaining.labelValues(source).set(value);
    } else if (name.equals(MetricNames.API_QUOTA_LIMIT)) {
      apiQuotaLimit.labelValues(source).set(value);
    } else if (name.equals(MetricNames.API_QUOTA_RESET_SECONDS)) {
      apiQuotaResetSeconds.labelValues(source).set(value);
    }
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  /** Each unit's interval, last success and data age ({@link UnitFreshness}). */
  public UnitFreshness freshness() {
    return freshness;
  }

  /**
   * Serves {@link MetricNames#READY}, asking {@code ready} at each scrape (what {@code /readyz}
   * asks). Called once, by the service that owns this registry.
   */
  public void registerReadiness(BooleanSupplier ready) {
    GaugeWithCallback.builder()
        .name(MetricNames.READY)
        .help("1 while the service is ready (as /readyz answers), else 0")
        .callback(callback -> callback.call(ready.getAsBoolean() ? 1 : 0))
        .register(registry);
  }

  /**
   * Adds {@code total} to the rows the unit's sources said their dumps hold; kept for a progress
   * line, not served: a series per announced count would say nothing a dashboard needs.
   */
  @Override
  public void partBegun(String store, OptionalLong total) {
    if (total.isPresent()) {
      announcedRows.merge(store, total.getAsLong(), Long::sum);
    }
  }

  /**
   * Per unit, the rows its dump parts said they hold when they began ({@code count_first}), summed
   * over the parts begun since start; a unit whose parts announced none is absent.
   */
  public Map<String, Long> announcedRows() {
    return Map.copyOf(announcedRows);
  }

  /**
   * Kept for a progress line, not served, as {@link #announcedRows}: per unit, the input bytes its
   * sources said they were about to read (a file dump's file sizes), summed since start.
   */
  @Override
  public void inputAhead(String store, long bytes) {
    inputAhead.merge(store, bytes, Long::sum);
  }

  @Override
  public void inputRead(String store, long bytes) {
    inputRead.merge(store, bytes, Long::sum);
  }

  /** Per unit, the input bytes announced with {@link #inputAhead}; absent for a unit with none. */
  public Map<String, Long> inputAhead() {
    return Map.copyOf(inputAhead);
  }

  /** Per unit, the input bytes read of what was announced. */
  public Map<String, Long> inputRead() {
    return Map.copyOf(inputRead);
  }

  @Override
  public void snapshotCompleted(String store) {
    snapshots.labelValues(store, "complete").inc();
  }

  @Override
  public void snapshotAborted(String store) {
    snapshots.labelValues(store, "aborted").inc();
  }

  @Override
  public void rowFrames(String store, long count) {
    snapshotRows.labelValues(store).inc(count);
  }

  @Override
  public void oversizeStub(String store) {
    snapshotStubs.labelValues(store).inc();
  }

  @Override
  public void landed(String source, String topic, long count) {
    records.labelValues(source, topic).inc(count);
  }

  @Override
  public RowCounters rowCounters(String store) {
    CounterDataPoint filteredOut = filtered.labelValues(store);
    CounterDataPoint unjudged = filterErrors.labelValues(store);
    return new RowCounters() {
      @Override
      public void filteredOut() {
        filteredOut.inc();
      }

      @Override
      public void filterError() {
        unjudged.inc();
      }
    };
  }

  /** {@code reason} is a fixed word ({@code oversize}, {@code refused}), not the entry's text. */
  @Override
  public void deadLettered(String source, String reason) {
    deadLetters.labelValues(source, reason).inc();
  }

  @Override
  public void tickTook(String source, double seconds) {
    tickDuration.labelValues(source).observe(seconds);
  }

  @Override
  public void checkpointCommitted(String source) {
    checkpointCommits.labelValues(source).inc();
    freshness.checkpointCommitted(source);
  }

  @Override
  public void tickSucceeded(String source) {
    freshness.tickSucceeded(source);
  }

  @Override
  public void tickFailed(String source) {
    tickFailures.labelValues(source).inc();
  }

  /** {@code reason} is a fixed word ({@code vanished}, {@code bad_file}, ...), not a message. */
  @Override
  public void fileSkipped(String source, String reason) {
    filesSkipped.labelValues(source, reason).inc();
  }

  /** The current value of a counter, for tests and for the once-run summary. */
  public double counterValue(String name, String... labelValues) {
    return switch (name) {
      case MetricNames.SNAPSHOTS -> snapshots.labelValues(labelValues).get();
      case MetricNames.SNAPSHOT_ROWS -> snapshotRows.labelValues(labelValues).get();
      case MetricNames.SNAPSHOT_ROWS_OVERSIZE -> snapshotStubs.labelValues(labelValues).get();
      case MetricNames.RECORDS -> records.labelValues(labelValues).get();
      case MetricNames.RECORDS_FILTERED -> filtered.labelValues(labelValues).get();
      case MetricNames.FILTER_ERRORS -> filterErrors.labelValues(labelValues).get();
      case MetricNames.DLQ -> deadLetters.labelValues(labelValues).get();
      case MetricNames.CHECKPOINT_COMMITS -> checkpointCommits.labelValues(labelValues).get();
      case MetricNames.TICK_FAILURES -> tickFailures.labelValues(labelValues).get();
      case MetricNames.FILES_SKIPPED -> filesSkipped.labelValues(labelValues).get();
      case MetricNames.TAIL_LINES -> tailLines.labelValues(labelValues).get();
      case MetricNames.TAIL_BYTES -> tailBytes.labelValues(labelValues).get();
      case MetricNames.TAIL_ROTATIONS -> tailRotations.labelValues(labelValues).get();
      case MetricNames.REST_CREDENTIALS_WITHHELD ->
          restCredentialsWithheld.labelValues(labelValues).get();
      case MetricNames.OUTPUT_FILE_ROTATIONS -> outputFileRotations.labelValues(labelValues).get();
      case MetricNames.OUTPUT_FILES_DELETED -> outputFilesDeleted.labelValues(labelValues).get();
      default -> throw new IllegalArgumentException("no counter named " + name);
    };
  }

  @Override
  public void topicOpened(String topic) {
    outputFileRotations.labelValues(topic);
    outputFilesDeleted.labelValues(topic);
  }

  @Override
  public void rotated(String topic) {
    outputFileRotations.labelValues(topic).inc();
  }

  @Override
  public void deleted(String topic) {
    outputFilesDeleted.labelValues(topic).inc();
  }

  /** The current value of a gauge, for tests. */
  public double gaugeValue(String name, String... labelValues) {
    return switch (name) {
      case MetricNames.TAIL_FILES_WATCHED -> tailFilesWatched.labelValues(labelValues).get();
      case MetricNames.TAIL_LAG_BYTES -> tailLag.labelValues(labelValues).get();
      case MetricNames.TAIL_LAG_SECONDS -> tailLagSeconds.labelValues(labelValues).get();
      default -> throw new IllegalArgumentException("no gauge named " + name);
    };
  }
}
