package dfe.fetcher.runtime.metrics;

import dfe.fetcher.core.metrics.MetricNames;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Every series the fetcher itself serves, with its type, label names and meaning, for {@code
 * dfe-fetcher metrics-manifest} and the operator's docs. {@link FetcherMetrics} registers them;
 * app's manifest test checks this list against what {@code /metrics} serves after a run that moves
 * every family, so the two cannot drift apart. The JVM's and the process's series come from the
 * Prometheus client's instrumentation and are listed from it, not here.
 */
public final class MetricManifest {

  /** A family's type as the Prometheus text format names it. */
  public enum Type {
    COUNTER,
    GAUGE,
    HISTOGRAM;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One family.
   *
   * @param name as served ({@code _total} included for a counter; a histogram's family name)
   * @param labels its label names, in the order they are registered
   * @param meaning what it counts or measures, in an operator's words
   */
  public record Series(String name, Type type, List<String> labels, String meaning) {
    public Series {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      labels = List.copyOf(labels);
      Objects.requireNonNull(meaning, "meaning");
    }
  }

  /** What {@code dfe-fetcher run} serves on {@code /metrics}, besides the JVM's series. */
  public static final List<Series> SERVICE =
      List.of(
          new Series(
              MetricNames.SNAPSHOTS,
              Type.COUNTER,
              List.of("store", "status"),
              "snapshots closed with an acknowledged end (status complete), and dump parts that"
                  + " will have none (status aborted)"),
          new Series(
              MetricNames.SNAPSHOT_ROWS,
              Type.COUNTER,
              List.of("store"),
              "row frames landed (acknowledged); a row the destination refused as too large counts"
                  + " once, as its oversize stub"),
          new Series(
              MetricNames.SNAPSHOT_ROWS_OVERSIZE,
              Type.COUNTER,
              List.of("store"),
              "oversize stubs emitted in place of rows longer than oversize.max_record_bytes"),
          new Series(
              MetricNames.RECORDS,
              Type.COUNTER,
              List.of("source", "topic"),
              "messages landed (frames, tail records and DLQ entries), counted on acknowledgement"),
          new Series(
              MetricNames.RECORDS_FILTERED,
              Type.COUNTER,
              List.of("source"),
              "rows the filter kept from landing: judged false, or not judged under"
                  + " filter_errors: drop"),
          new Series(
              MetricNames.FILTER_ERRORS,
              Type.COUNTER,
              List.of("source"),
              "rows the filter could not judge (a missing field, a failed operation), kept or"
                  + " dropped"),
          new Series(
              MetricNames.DLQ,
              Type.COUNTER,
              List.of("source", "reason"),
              "dead letters by reason (oversize, refused, bad_file; *_dropped when dlq.enabled is"
                  + " false)"),
          new Series(
              MetricNames.TICK_DURATION,
              Type.HISTOGRAM,
              List.of("source"),
              "how long each tick of the unit took, in seconds"),
          new Series(
              MetricNames.CHECKPOINT_COMMITS,
              Type.COUNTER,
              List.of("source"),
              "checkpoints committed"),
          new Series(
              MetricNames.TICK_FAILURES, Type.COUNTER, List.of("source"), "ticks that failed"),
          new Series(
              MetricNames.FILES_SKIPPED,
              Type.COUNTER,
              List.of("source", "reason"),
              "files a file dump passed over, once per tick each (not_regular, outside_base,"
                  + " unreadable, vanished, not_settled, bad_file)"),
          new Series(
              MetricNames.REST_PAGES,
              Type.COUNTER,
              List.of("source"),
              "pages a REST unit fetched (2xx answers whose rows were read)"),
          new Series(
              MetricNames.REST_REQUESTS,
              Type.COUNTER,
              List.of("source", "status_class"),
              "HTTP requests a REST unit sent, retries included, by status class (2xx, 3xx, 4xx,"
                  + " 5xx, error for no answer)"),
          new Series(
              MetricNames.REST_RETRIES,
              Type.COUNTER,
              List.of("source"),
              "requests a REST unit tried again"),
          new Series(
              MetricNames.REST_THROTTLED,
              Type.COUNTER,
              List.of("source"),
              "429 answers a REST unit received"),
          new Series(
              MetricNames.REST_REQUEST_DURATION,
              Type.HISTOGRAM,
              List.of("source"),
              "how long a REST request took until its answer started, in seconds"),
          new Series(
              MetricNames.API_QUOTA_REMAINING,
              Type.GAUGE,
              List.of("source"),
              "the requests a REST API says are left in its rate-limit window, as its last answer"
                  + " with X-RateLimit-Remaining (or its kin, or the profile's"
                  + " quota.headers.remaining) said"),
          new Series(
              MetricNames.API_QUOTA_LIMIT,
              Type.GAUGE,
              List.of("source"),
              "the requests a REST API says its rate-limit window allows, as its last answer with"
                  + " the profile's quota.headers.limit header said"),
          new Series(
              MetricNames.API_QUOTA_RESET_SECONDS,
              Type.GAUGE,
              List.of("source"),
              "seconds until a REST API's rate-limit window resets, as its last answer with the"
                  + " profile's quota.headers.reset header said"),
          new Series(
              MetricNames.REST_CREDENTIALS_WITHHELD,
              Type.COUNTER,
              List.of("source"),
              "REST requests to an origin the unit's credentials do not go to, sent without them"
                  + " or refused (other_origins: refuse)"),
          new Series(
              MetricNames.TAIL_LINES,
              Type.COUNTER,
              List.of("source"),
              "whole lines a file tail unit read, bad lines included"),
          new Series(
              MetricNames.TAIL_BYTES,
              Type.COUNTER,
              List.of("source"),
              "bytes a file tail unit read, line ends included"),
          new Series(
              MetricNames.TAIL_FILES_WATCHED,
              Type.GAUGE,
              List.of("source"),
              "files a file tail unit follows after its last read"),
          new Series(
              MetricNames.TAIL_LAG_BYTES,
              Type.GAUGE,
              List.of("source", "file"),
              "bytes of a followed file not read yet (size less offset) after the unit's last read"),
          new Series(
              MetricNames.TAIL_LAG_SECONDS,
              Type.GAUGE,
              List.of("source", "file"),
              "seconds the oldest unread byte of a followed file has been in it (at least), after"
                  + " the unit's last read; 0 when it is read to its end"),
          new Series(
              MetricNames.TAIL_ROTATIONS,
              Type.COUNTER,
              List.of("source", "kind"),
              "rotations a file tail unit saw (rename, truncate, deleted)"),
          new Series(
              MetricNames.OUTPUT_FILE_ROTATIONS,
              Type.COUNTER,
              List.of("topic"),
              "rotations of the file output's live file of a topic, from the topic's first write"),
          new Series(
              MetricNames.OUTPUT_FILES_DELETED,
              Type.COUNTER,
              List.of("topic"),
              "rotated files of a topic the file output's retention deleted, from the topic's"
                  + " first write"),
          new Series(
              MetricNames.CHECKPOINT_AGE,
              Type.GAUGE,
              List.of("source"),
              "seconds since the unit's data last moved: its checkpoint was committed (at start,"
                  + " when its checkpoint file was written), or, for a dump that keeps none, its"
                  + " last successful tick ended; before either, since the service started"),
          new Series(
              MetricNames.LAST_SUCCESS,
              Type.GAUGE,
              List.of("source"),
              "when the unit's last successful tick ended, in epoch seconds (absent before its"
                  + " first success since the start)"),
          new Series(
              MetricNames.UNIT_INTERVAL,
              Type.GAUGE,
              List.of("source"),
              "the unit's interval_secs, in seconds"),
          new Series(
              MetricNames.READY,
              Type.GAUGE,
              List.of(),
              "1 while the service is ready (/readyz answers 200), else 0"));

  /** What {@code snapshots apply --metrics-address} serves, a process of its own. */
  public static final List<Series> APPLY =
      List.of(
          new Series(
              MetricNames.Apply.SNAPSHOTS,
              Type.COUNTER,
              List.of("table", "outcome"),
              "snapshots settled by outcome (applied, superseded, abandoned, skipped, refused,"
                  + " not-applied)"),
          new Series(
              MetricNames.Apply.ROWS,
              Type.COUNTER,
              List.of("table"),
              "rows swapped into the table"),
          new Series(
              MetricNames.Apply.CHANGES,
              Type.COUNTER,
              List.of("table", "op"),
              "change events published, by op (add, remove, change)"),
          new Series(
              "dfe_fetcher_apply_retries_total",
              Type.COUNTER,
              List.of("table", "cause"),
              "runs of --follow that failed and were retried, by cause (database, kafka)"));

  private MetricManifest() {}
}
