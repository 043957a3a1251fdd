package dfe.fetcher.core.metrics;

/** Every metric the fetcher exposes, named once. Labels are listed with each. */
public final class MetricNames {

  /** Labels {@code store}, {@code status} ({@code complete}, {@code aborted}). */
  public static final String SNAPSHOTS = "dfe_fetcher_snapshots_total";

  /** Label {@code store}: row frames emitted. */
  public static final String SNAPSHOT_ROWS = "dfe_fetcher_snapshot_rows_total";

  /** Label {@code store}: oversize stubs emitted. */
  public static final String SNAPSHOT_ROWS_OVERSIZE = "dfe_fetcher_snapshot_rows_oversize_total";

  /** Labels {@code source}, {@code topic}: records (frames and tail records) landed. */
  public static final String RECORDS = "dfe_fetcher_records_total";

  /** Label {@code source}: rows the filter dropped, evaluation errors included. */
  public static final String RECORDS_FILTERED = "dfe_fetcher_records_filtered_total";

  /** Rows the filter could not judge (a missing field, a failed operation), kept or dropped. */
  public static final String FILTER_ERRORS = "dfe_fetcher_filter_errors_total";

  /** Labels {@code source}, {@code reason}: entries written to the dead-letter queue. */
  public static final String DLQ = "dfe_fetcher_dlq_total";

  /** Label {@code source}: how long each unit's tick took. */
  public static final String TICK_DURATION = "dfe_fetcher_tick_duration_seconds";

  /** Label {@code source}: checkpoints committed. */
  public static final String CHECKPOINT_COMMITS = "dfe_fetcher_checkpoint_commits_total";

  /** Label {@code source}: ticks that failed. */
  public static final String TICK_FAILURES = "dfe_fetcher_tick_failures_total";

  /**
   * Labels {@code source}, {@code reason} ({@code not_regular}, {@code outside_base}, {@code
   * unreadable}, {@code vanished}, {@code not_settled}, {@code bad_file}): files a dump passed
   * over, counted once per tick each.
   */
  public static final String FILES_SKIPPED = "dfe_fetcher_files_skipped_total";

  /** Label {@code source}: pages a REST unit fetched (2xx responses whose rows were read). */
  public static final String REST_PAGES = "dfe_fetcher_rest_pages_total";

  /**
   * Labels {@code source}, {@code status_class} ({@code 2xx}, {@code 3xx}, {@code 4xx}, {@code
   * 5xx}, {@code error} for no response): every HTTP request a REST unit sent, retries included.
   */
  public static final String REST_REQUESTS = "dfe_fetcher_rest_requests_total";

  /** Label {@code source}: requests a REST unit tried again. */
  public static final String REST_RETRIES = "dfe_fetcher_rest_retries_total";

  /** Label {@code source}: 429 answers a REST unit received. */
  public static final String REST_THROTTLED = "dfe_fetcher_rest_throttled_total";

  /** Label {@code source}: how long a REST request took until its response started. */
  public static final String REST_REQUEST_DURATION = "dfe_fetcher_rest_request_duration_seconds";

  /** Label {@code source}: whole lines a file tail unit read (bad lines included). */
  public static final String TAIL_LINES = "dfe_fetcher_tail_lines_total";

  /** Label {@code source}: bytes a file tail unit read, line ends included. */
  public static final String TAIL_BYTES = "dfe_fetcher_tail_bytes_total";

  /** Gauge, label {@code source}: files a file tail unit follows after its last read. */
  public static final String TAIL_FILES_WATCHED = "dfe_fetcher_tail_files_watched";

  /**
   * Gauge, labels {@code source}, {@code file}: bytes of a followed file not yet read ({@code size
   * - offset}) after the unit's last read; a file no longer followed loses its series.
   */
  public static final String TAIL_LAG_BYTES = "dfe_fetcher_tail_lag_bytes";

  /**
   * Gauge, labels {@code source}, {@code file}: how long the oldest byte of a followed file not yet
   * read has been in the file, in seconds, after the unit's last read (0 when it is read to its
   * end); a lower bound, as precise as the time between two reads. A file no longer followed loses
   * its series.
   */
  public static final String TAIL_LAG_SECONDS = "dfe_fetcher_tail_lag_seconds";

  /**
   * Labels {@code source}, {@code kind} ({@code rename}: a path now names another file; {@code
   * truncate}: a file shrank below its offset and is read from its start; {@code deleted}: a file
   * removed while followed): rotations a file tail unit saw.
   */
  public static final String TAIL_ROTATIONS = "dfe_fetcher_tail_rotations_total";

  /**
   * Label {@code topic}: rotations of the file output's live file of a topic ({@code
   * output.file.rotate_bytes}, {@code rotate_secs}); from zero once the topic's file is first used.
   */
  public static final String OUTPUT_FILE_ROTATIONS = "dfe_fetcher_output_file_rotations_total";

  /**
   * Label {@code topic}: rotated files of a topic the file output's retention deleted ({@code
   * output.file.retain_files}, {@code retain_secs}); from zero once the topic's file is first used.
   */
  public static final String OUTPUT_FILES_DELETED = "dfe_fetcher_output_files_deleted_total";

  /**
   * Label {@code source}, a gauge: the requests the API says are left in its current rate-limit
   * window, as a REST unit's last response with {@code X-RateLimit-Remaining}, {@code
   * X-Rate-Limit-Remaining} or {@code RateLimit-Remaining} reported it, or with the header a
   * profile's {@code quota.headers.remaining} names.
   */
  public static final String API_QUOTA_REMAINING = "dfe_fetcher_api_quota_remaining";

  /**
   * Label {@code source}, a gauge: the requests the API says its current rate-limit window allows,
   * from the header a profile's {@code quota.headers.limit} names, as the unit's last answer with
   * it said.
   */
  public static final String API_QUOTA_LIMIT = "dfe_fetcher_api_quota_limit";

  /**
   * Label {@code source}, a gauge: the seconds until the API's rate-limit window resets, from the
   * header a profile's {@code quota.headers.reset} names (seconds from now as sent, or epoch
   * seconds counted down), as the unit's last answer with it said.
   */
  public static final String API_QUOTA_RESET_SECONDS = "dfe_fetcher_api_quota_reset_seconds";

  /**
   * Label {@code source}: requests a REST unit sent to an origin its credentials do not go to (a
   * {@code Link} to another host), without them or refused ({@code other_origins: refuse}).
   */
  public static final String REST_CREDENTIALS_WITHHELD =
      "dfe_fetcher_rest_credentials_withheld_total";

  // Issue 23 (observe): how fresh each unit's data is, and whether the service is ready. Gauges
  // the service computes when /metrics is scraped, by the service's clock.

  /**
   * Gauge, label {@code source}: seconds since the unit's data last moved: its checkpoint was last
   * committed (a unit that keeps one; at start, the time its checkpoint file was written), or its
   * last successful tick (a database or REST dump, which keeps none). Before either is known, the
   * seconds since the service started.
   */
  public static final String CHECKPOINT_AGE = "dfe_fetcher_checkpoint_age_seconds";

  /** Gauge, label {@code source}: when the unit's last successful tick ended, in epoch seconds. */
  public static final String LAST_SUCCESS = "dfe_fetcher_last_success_timestamp_seconds";

  /** Gauge, label {@code source}: the unit's interval ({@code interval_secs}), in seconds. */
  public static final String UNIT_INTERVAL = "dfe_fetcher_unit_interval_seconds";

  /**
   * Gauge, no label: 1 while {@code /readyz} would answer 200 (the output is reachable), else 0.
   */
  public static final String READY = "dfe_fetcher_ready";

  /**
   * The metrics of {@code snapshots apply --metrics-address}: a process of its own, so {@code run}
   * does not expose them.
   */
  public static final class Apply {

    /**
     * Labels {@code table}, {@code outcome} ({@code applied}, {@code superseded}, {@code skipped},
     * {@code refused}, {@code not-applied}): snapshots settled.
     */
    public static final String SNAPSHOTS = "dfe_fetcher_apply_snapshots_total";

    /** Label {@code table}: rows swapped into the table. */
    public static final String ROWS = "dfe_fetcher_apply_rows_total";

    /** Labels {@code table}, {@code op} ({@code add}, {@code remove}, {@code change}). */
    public static final String CHANGES = "dfe_fetcher_apply_changes_total";

    private Apply() {}
  }

  private MetricNames() {}
}
