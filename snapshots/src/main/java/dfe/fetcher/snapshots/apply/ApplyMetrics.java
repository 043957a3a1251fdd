package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.metrics.MetricNames;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The counters of {@code snapshots apply} for one table, served on {@code /metrics} when an address
 * is given (with {@code --follow}).
 */
public final class ApplyMetrics implements AutoCloseable {

  /**
   * Failures {@code --follow} retried, labelled {@code cause} {@code database} or {@code kafka}.
   */
  public static final String RETRIES = "dfe_fetcher_apply_retries_total";

  private final String table;
  private final Counter snapshots;
  private final Counter rows;
  private final Counter changes;
  private final Counter retries;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private HTTPServer server;

  public ApplyMetrics(String table) {
    this.table = table;
    snapshots =
        Counter.builder()
            .name(MetricNames.Apply.SNAPSHOTS)
            .help(
                "Snapshots settled: applied, superseded, abandoned, skipped, refused or not applied")
            .labelNames("table", "outcome")
            .register(registry);
    rows =
        Counter.builder()
            .name(MetricNames.Apply.ROWS)
            .help("Rows swapped into the table")
            .labelNames("table")
            .register(registry);
    changes =
        Counter.builder()
            .name(MetricNames.Apply.CHANGES)
            .help("Change events published to the changes topic")
            .labelNames("table", "op")
            .register(registry);
    retries =
        Counter.builder()
            .name(RETRIES)
            .help("Runs of --follow that failed and were retried, by what failed")
            .labelNames("table", "cause")
            .register(registry);
  }

  /**
   * Serves {@code /metrics} on {@code address} ({@code HOST:PORT}).
   *
   * @return the port listened on (the one chosen when {@code PORT} is 0)
   */
  public int serve(InetSocketAddress address) throws IOException {
    server =
        HTTPServer.builder()
            .hostname(address.getHostString())
            .port(address.getPort())
            .registry(registry)
            .buildAndStart();
    return server.getPort();
  }

  void snapshot(String outcome) {
    snapshots.labelValues(table, outcome).inc();
  }

  void applied(long rowCount, ChangeCounts counts) {
    rows.labelValues(table).inc(rowCount);
    if (counts.counted()) {
      changes.labelValues(table, "add").inc(counts.added());
      changes.labelValues(table, "remove").inc(counts.removed());
      changes.labelValues(table, "change").inc(counts.changed());
    }
  }

  /** A failure of {@code cause} ({@code database}, {@code kafka}) that will be retried. */
  public void retried(String cause) {
    retries.labelValues(table, cause).inc();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
