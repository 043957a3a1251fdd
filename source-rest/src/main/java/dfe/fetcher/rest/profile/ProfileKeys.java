package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.auth.AuthMode;
import dfe.fetcher.rest.construct.ConstructType;
import dfe.fetcher.rest.http.QuotaGauge;
import dfe.fetcher.rest.page.PagerType;
import java.util.List;

/**
 * Every key a profile takes, by where it stands, and the keys of an instance's {@code auth} and
 * {@code units} that bind it. The lists of {@code auth} and {@code paginate} come from their
 * registries ({@link AuthMode}, {@link PagerType}), so a new mode or pager brings its keys along.
 */
public final class ProfileKeys {

  public static final List<String> AUTH_KEYS = AuthMode.sectionKeys();
  public static final List<String> UNIT_KEYS =
      List.of(
          "enabled",
          "endpoint",
          "vars",
          "max_pages",
          "max_page_bytes",
          "timeout_secs",
          "query",
          "lookback",
          "settle");

  /** A profile's {@code units}: a unit that runs one of its endpoints with variables of its own. */
  public static final List<String> PROFILE_UNIT_KEYS = List.of("endpoint", "vars");

  public static final List<String> PROFILE_KEYS =
      List.of(
          "base_url",
          "vars",
          "auth",
          "headers",
          "retry",
          "rate",
          "quota",
          "errors",
          "defaults",
          "probe",
          "endpoints",
          "units",
          "maturity");
  public static final List<String> PROFILE_AUTH_KEYS =
      List.of(
          "accepts", "header", "prefix", "query_param", "token_url", "scope", "service", "region");
  public static final List<String> RETRY_KEYS =
      List.of("max_retries", "initial_backoff_ms", "max_backoff_ms", "max_retry_wait_secs");
  public static final List<String> RATE_KEYS = List.of("requests_per_sec");
  public static final List<String> QUOTA_KEYS = List.of("headers");
  public static final List<String> QUOTA_HEADER_KEYS = QuotaGauge.words();
  public static final List<String> ERRORS_KEYS =
      List.of("retry_on", "never_retry", "ignore_status", "throttle_when", "retry_non_idempotent");
  public static final List<String> CONNECTION_RATE_KEYS = List.of("requests_per_sec", "burst");
  public static final List<String> ENDPOINT_KEYS =
      List.of(
          "unit",
          "shape",
          "method",
          "vars",
          "body",
          "path",
          "query",
          "headers",
          "rows",
          "row_key",
          "paginate",
          "max_pages",
          "max_page_bytes",
          "timeout_secs",
          "fail_when",
          "error_at",
          "errors",
          "window",
          "prelude",
          "construct",
          "auth",
          "lister");

  /**
   * What an endpoint's {@code auth} may ask of the instance's credentials ({@link UnitAuthBinder}).
   */
  public static final List<String> UNIT_AUTH_KEYS = List.of("service", "region", "scope");

  /** What a profile's {@code defaults} may give every endpoint that leaves it out. */
  public static final List<String> DEFAULTS_KEYS =
      List.of(
          "vars",
          "query",
          "headers",
          "rows",
          "row_key",
          "paginate",
          "max_pages",
          "max_page_bytes",
          "timeout_secs",
          "fail_when",
          "error_at",
          "prelude",
          "construct");

  public static final List<String> PROBE_KEYS =
      List.of("unit", "method", "path", "query", "expect_status", "base_url", "auth");
  public static final List<String> ROWS_KEYS =
      List.of("decoder", "at", "allow_missing", "gzip", "quoted", "builder", "field", "add_fields");
  public static final List<String> PAGINATE_KEYS = PagerType.sectionKeys();

  /** {@code construct}: each construct's name, as {@link ConstructType} registers them. */
  public static final List<String> CONSTRUCT_KEYS = ConstructType.names();

  public static final List<String> WINDOW_KEYS =
      List.of(
          "format", "lookback", "step", "settle", "position_at", "cursor_at", "cursor_lookback");

  private ProfileKeys() {}
}
