package dfe.fetcher.rest.profile;

import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.RowFilter;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.rest.RestConnection;
import dfe.fetcher.rest.RestSourceFamily;
import dfe.fetcher.rest.auth.AuthMode;
import dfe.fetcher.rest.auth.AuthSettings;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.rest.page.Decoder;
import dfe.fetcher.rest.page.JsonPointerSetting;
import dfe.fetcher.rest.page.Pager;
import dfe.fetcher.rest.page.PagerType;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.UnitNames;
import dfe.fetcher.source.config.YamlNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Binds one profile (shipped or inline) to one instance: every key and word checked, every template
 * checked against the variables defined where it is used, each problem reported at its {@code
 * FILE:LINE:COL} and path, all at once.
 */
public final class ProfileBinder {

  public static final List<String> PROFILE_KEYS =
      List.of("base_url", "vars", "auth", "headers", "retry", "rate", "endpoints");
  public static final List<String> PROFILE_AUTH_KEYS =
      List.of("accepts", "header", "prefix", "query_param", "token_url", "scope");
  public static final List<String> RETRY_KEYS =
      List.of("max_retries", "initial_backoff_ms", "max_backoff_ms", "max_retry_wait_secs");
  public static final List<String> RATE_KEYS = List.of("requests_per_sec");
  public static final List<String> ENDPOINT_KEYS =
      List.of(
          "unit",
          "shape",
          "method",
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
          "window");
  public static final List<String> ROWS_KEYS = List.of("decoder", "at");
  public static final List<String> PAGINATE_KEYS = PagerType.sectionKeys();
  public static final List<String> WINDOW_KEYS = List.of("format", "lookback", "step", "settle");

  private final String varsPath;
  private final Section connection;
  private final Section profile;
  private final Map<String, String> instanceVars;
  private final Map<String, Section> overrides;
  private final BindContext context;
  private final Map<String, String> vars = new LinkedHashMap<>();

  public ProfileBinder(
      String varsPath,
      Section connection,
      Section profile,
      Map<String, String> instanceVars,
      Map<String, Section> overrides,
      BindContext context) {
    this.varsPath = varsPath;
    this.connection = connection;
    this.profile = profile;
    this.instanceVars = instanceVars;
    this.overrides = overrides;
    this.context = context;
  }

  public RestConnection bind(String id, String profileName) {
    for (YamlNode.Entry entry : profile.namedEntries("vars").orElse(List.of())) {
      profile
          .text(entry.value(), Section.join(profile.pathOf("vars"), entry.key()))
          .ifPresent(value -> vars.put(entry.key(), value));
    }
    vars.putAll(instanceVars);
    Set<String> common = scope(false);
    Optional<Template> baseUrl = template(profile, "base_url", common, true);
    baseUrl.ifPresent(this::checkBaseUrl);
    Map<String, Template> headers = headers(profile, common);
    RetryPolicy retry = retry(profile.section("retry", RETRY_KEYS));
    OptionalDouble rate = rate(profile.section("rate", RATE_KEYS));
    Section profileAuth = profile.section("auth", PROFILE_AUTH_KEYS);
    Credentials credentials = credentials(profileAuth);
    List<Endpoint> endpoints = endpoints();
    for (Map.Entry<String, Section> override : overrides.entrySet()) {
      if (endpoints.stream().noneMatch(e -> e.unit().equals(override.getKey()))) {
        Section unit = override.getValue();
        unit.report(
            unit.origin(),
            unit.path(),
            "the profile has no unit '"
                + override.getKey()
                + "'; its units: "
                + String.join(", ", endpoints.stream().map(Endpoint::unit).toList()));
      }
    }
    return new RestConnection(
        id,
        profileName,
        baseUrl.orElse(Template.literal("")),
        vars,
        headers,
        retry,
        rate,
        credentials,
        endpoints);
  }

  /** The names a template may read: every variable, the unit's name, and the window's bounds. */
  private Set<String> scope(boolean window) {
    Set<String> names = new LinkedHashSet<>();
    vars.keySet().forEach(name -> names.add("vars." + name));
    names.add("unit.name");
    if (window) {
      names.add("window.start");
      names.add("window.end");
    }
    return names;
  }

  private Optional<Template> template(
      Section section, String key, Set<String> scope, boolean required) {
    Optional<String> text = required ? section.requiredString(key) : section.string(key);
    return text.flatMap(
        t -> template(t, section.originOf(key), section.pathOf(key), scope, section));
  }

  private Optional<Template> template(
      String text, ConfigOrigin origin, String at, Set<String> scope, Section reporter) {
    Template template;
    try {
      template = Template.parse(text);
    } catch (IllegalArgumentException e) {
      reporter.report(origin, at, e.getMessage());
      return Optional.empty();
    }
    boolean ok = true;
    for (String name : template.names()) {
      if (scope.contains(name)) {
        continue;
      }
      ok = false;
      if (name.startsWith("window.")) {
        reporter.report(origin, at, "reads {{ " + name + " }}, which only a tail endpoint has");
      } else {
        reporter.report(
            origin,
            at,
            "reads {{ "
                + name
                + " }}, which is not defined; set "
                + name.substring("vars.".length())
                + " in "
                + varsPath
                + (vars.isEmpty() ? "" : " (defined: " + String.join(", ", vars.keySet()) + ")"));
      }
    }
    return ok ? Optional.of(template) : Optional.empty();
  }

  private void checkBaseUrl(Template baseUrl) {
    Map<String, String> values = new HashMap<>();
    vars.forEach((name, value) -> values.put("vars." + name, value));
    values.put("unit.name", "unit");
    String rendered = baseUrl.render(values);
    String problem = null;
    try {
      URI uri = new URI(rendered);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        problem = "must be an http or https URL, e.g. https://api.example.com/v1";
      } else if (uri.getHost() == null) {
        problem = "must name a host, e.g. https://api.example.com/v1";
      } else if (uri.getRawUserInfo() != null) {
        problem = "must not hold credentials; use auth";
      } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        problem = "must not have a query or fragment; use an endpoint's query";
      }
    } catch (URISyntaxException e) {
      problem = "is not a URL: " + e.getReason();
    }
    if (problem != null) {
      profile.report("base_url", problem + " (as rendered with the instance's vars)");
    }
  }

  private Map<String, Template> headers(Section section, Set<String> scope) {
    Map<String, Template> headers = new LinkedHashMap<>();
    for (YamlNode.Entry entry : section.namedEntries("headers").orElse(List.of())) {
      String at = Section.join(section.pathOf("headers"), entry.key());
      if (!HeaderNames.isToken(entry.key())) {
        section.report(entry.keyOrigin(), at, "is not a header name");
        continue;
      }
      if (HeaderNames.isSetByClient(entry.key())) {
        section.report(
            entry.keyOrigin(),
            at,
            "is set by the client"
                + (entry.key().equalsIgnoreCase("authorization") ? " from auth" : "")
                + "; leave it out");
        continue;
      }
      section
          .text(entry.value(), at)
          .flatMap(text -> template(text, entry.value().origin(), at, scope, section))
          .ifPresent(template -> headers.put(entry.key(), template));
    }
    return headers;
  }

  private static RetryPolicy retry(Section retry) {
    RetryPolicy d = RetryPolicy.DEFAULT;
    int maxRetries = retry.smallInteger("max_retries", d.maxRetries(), 0, 100);
    long initial = retry.integer("initial_backoff_ms", d.initialBackoffMs(), 0, 3_600_000);
    long max = retry.integer("max_backoff_ms", d.maxBackoffMs(), 0, 3_600_000);
    long wait = retry.integer("max_retry_wait_secs", d.maxRetryWaitSecs(), 0, 86_400);
    if (max < initial) {
      retry.report("max_backoff_ms", "must be at least initial_backoff_ms (" + initial + ")");
    }
    return new RetryPolicy(maxRetries, initial, max, wait);
  }

  private static OptionalDouble rate(Section rate) {
    Optional<YamlNode> node = rate.node("requests_per_sec");
    if (node.isEmpty()) {
      return OptionalDouble.empty();
    }
    if (node.get() instanceof YamlNode.Scalar scalar
        && (scalar.kind() == YamlNode.ScalarKind.INTEGER
            || scalar.kind() == YamlNode.ScalarKind.FLOAT)) {
      double value = Double.parseDouble(scalar.text().replace("_", ""));
      if (value > 0 && value <= 10_000) {
        return OptionalDouble.of(value);
      }
    }
    rate.report("requests_per_sec", "must be a number above 0 and at most 10000, e.g. 2 or 0.5");
    return OptionalDouble.empty();
  }

  private Credentials credentials(Section profileAuth) {
    List<AuthMode> accepts = new ArrayList<>();
    for (YamlNode item : profileAuth.list("accepts").orElse(List.of())) {
      profileAuth
          .text(item, profileAuth.pathOf("accepts"))
          .ifPresent(
              name ->
                  AuthMode.named(name)
                      .ifPresentOrElse(
                          accepts::add,
                          () ->
                              profileAuth.report(
                                  item,
                                  profileAuth.pathOf("accepts"),
                                  "unknown auth mode '"
                                      + name
                                      + "'; one of "
                                      + String.join(", ", AuthMode.names()))));
    }
    Section auth = connection.section("auth", RestSourceFamily.AUTH_KEYS);
    AuthMode mode = AuthMode.NONE;
    Optional<String> modeName = auth.string("mode");
    if (connection.node("auth").isPresent() && auth.require("mode") && modeName.isPresent()) {
      Optional<AuthMode> named = AuthMode.named(modeName.get());
      if (named.isEmpty()) {
        auth.report(
            "mode",
            "unknown auth mode '"
                + modeName.get()
                + "'; one of "
                + String.join(", ", AuthMode.names()));
      } else {
        mode = named.get();
      }
    }
    if (!accepts.isEmpty() && !accepts.contains(mode)) {
      auth.report(
          "mode",
          "the profile accepts "
              + String.join(", ", accepts.stream().map(AuthMode::configName).toList())
              + ", not "
              + mode.configName());
    }
    for (String key : RestSourceFamily.AUTH_KEYS) {
      if (!key.equals("mode") && !mode.keys().contains(key) && auth.node(key).isPresent()) {
        auth.report(key, "does not apply to auth mode " + mode.configName());
      }
    }
    return mode.bind(new AuthSettings(auth, profileAuth, context));
  }

  private List<Endpoint> endpoints() {
    return UnitNames.bindEach(
        profile, "endpoints", "endpoint", ENDPOINT_KEYS, "profile", this::endpoint, Endpoint::unit);
  }

  private Endpoint endpoint(Section endpoint) {
    String unit = endpoint.requiredName("unit");
    Section override =
        overrides.getOrDefault(
            unit,
            Section.of(
                Optional.empty(),
                endpoint.origin(),
                Section.join(connection.pathOf("units"), unit),
                RestSourceFamily.UNIT_KEYS,
                context.problems()));
    boolean enabled = override.bool("enabled", true);
    Shape shape = endpoint.shape("shape");
    boolean tail = shape == Shape.TAIL;
    Set<String> scope = scope(tail);
    String method = endpoint.string("method", "GET");
    if (!method.equals("GET") && !method.equals("POST")) {
      endpoint.report("method", "unknown method '" + method + "'; one of GET, POST");
    }
    Optional<BodyTemplate> body = Optional.empty();
    if (endpoint.node("body").isPresent()) {
      YamlNode node = endpoint.node("body").get();
      if (!method.equals("POST")) {
        endpoint.report("body", "applies to method: POST only");
      } else if (node instanceof YamlNode.Scalar) {
        endpoint.report("body", "must be a mapping or a list: the JSON body, written in YAML");
      } else if (checkBody(node, endpoint.pathOf("body"), scope, endpoint)) {
        body = Optional.of(new BodyTemplate(node));
      }
    }
    Template path = template(endpoint, "path", scope, true).orElse(Template.literal(""));
    if (endpoint
        .string("path")
        .filter(p -> !p.isEmpty() && !p.startsWith("/") && !p.startsWith("{{"))
        .isPresent()) {
      endpoint.report("path", "must start with '/' (it is appended to base_url)");
    }
    Map<String, Template> query = query(endpoint, scope);
    for (YamlNode.Entry entry : override.namedEntries("query").orElse(List.of())) {
      String at = Section.join(override.pathOf("query"), entry.key());
      override
          .text(entry.value(), at)
          .flatMap(text -> template(text, entry.value().origin(), at, scope, override))
          .ifPresent(template -> query.put(entry.key(), template));
    }
    Map<String, Template> headers = headers(endpoint, scope);
    Section rows = endpoint.section("rows", ROWS_KEYS);
    Decoder decoder = Decoder.JSON_ARRAY;
    if (endpoint.require("rows") && rows.require("decoder")) {
      String name = rows.string("decoder").orElse("json_array");
      Optional<Decoder> named = Decoder.named(name);
      if (named.isPresent()) {
        decoder = named.get();
      } else {
        rows.report(
            "decoder",
            "unknown decoder '" + name + "'; one of " + String.join(", ", Decoder.names()));
      }
    }
    Optional<String> rowsAt = JsonPointerSetting.read(rows, "at");
    if (decoder == Decoder.JSON_AT && rowsAt.isEmpty() && rows.node("at").isEmpty()) {
      rows.report("at", "json_at needs the JSON pointer of the rows, e.g. at: /items");
    }
    if (decoder != Decoder.JSON_AT && rows.node("at").isPresent()) {
      rows.report("at", "applies to decoder json_at only");
    }
    Optional<String> rowKey = endpoint.rowKey("row_key");
    Pager pager = pager(endpoint.section("paginate", PAGINATE_KEYS), endpoint);
    if (pager.readsBody() && decoder.streamed()) {
      endpoint.report(
          "paginate",
          "reads the page's body, which decoder "
              + decoder.configName()
              + " streams and does not hold; use json_at or document");
    }
    int maxPages =
        override.smallInteger(
            "max_pages",
            endpoint.smallInteger("max_pages", Endpoint.DEFAULT_MAX_PAGES, 1, 100_000),
            1,
            100_000);
    long maxPageBytes =
        override.integer(
            "max_page_bytes",
            endpoint.integer(
                "max_page_bytes", Endpoint.DEFAULT_MAX_PAGE_BYTES, 1_024, Integer.MAX_VALUE - 8),
            1_024,
            Integer.MAX_VALUE - 8);
    int timeout =
        override.smallInteger(
            "timeout_secs",
            endpoint.smallInteger("timeout_secs", Endpoint.DEFAULT_TIMEOUT_SECS, 1, 3_600),
            1,
            3_600);
    Optional<String> failWhen = endpoint.string("fail_when");
    if (failWhen.isPresent()) {
      if (decoder.streamed()) {
        endpoint.report(
            "fail_when",
            "reads the page's body, which decoder "
                + decoder.configName()
                + " streams and does not hold; use json_at or document");
      }
      try {
        RowFilter.compile(failWhen.get());
      } catch (FilterCompileException e) {
        endpoint.report("fail_when", "does not compile: " + e.getMessage());
      }
    }
    Optional<String> errorAt = JsonPointerSetting.read(endpoint, "error_at");
    Optional<WindowSpec> window = Optional.empty();
    if (tail) {
      if (endpoint.require("window")) {
        window = Optional.of(window(endpoint.section("window", WINDOW_KEYS), override));
      }
    } else {
      if (endpoint.node("window").isPresent()) {
        endpoint.report("window", "applies to shape: tail only");
      }
      for (String key : List.of("lookback", "settle")) {
        if (override.node(key).isPresent()) {
          override.report(key, "applies to tail units only");
        }
      }
    }
    return new Endpoint(
        unit,
        enabled,
        shape,
        method,
        body,
        path,
        query,
        headers,
        decoder,
        rowsAt,
        rowKey,
        pager,
        maxPages,
        maxPageBytes,
        timeout,
        failWhen,
        errorAt,
        window,
        endpoint.originOf("unit"),
        endpoint.pathOf("unit"));
  }

  private boolean checkBody(YamlNode node, String at, Set<String> scope, Section reporter) {
    if (node instanceof YamlNode.Mapping mapping) {
      boolean ok = true;
      for (YamlNode.Entry entry : mapping.entries()) {
        ok &= checkBody(entry.value(), Section.join(at, entry.key()), scope, reporter);
      }
      return ok;
    }
    if (node instanceof YamlNode.Sequence sequence) {
      boolean ok = true;
      for (int i = 0; i < sequence.items().size(); i++) {
        ok &= checkBody(sequence.items().get(i), at + "[" + i + "]", scope, reporter);
      }
      return ok;
    }
    YamlNode.Scalar scalar = (YamlNode.Scalar) node;
    if (scalar.kind() == YamlNode.ScalarKind.STRING) {
      return template(scalar.text(), scalar.origin(), at, scope, reporter).isPresent();
    }
    return true;
  }

  private Map<String, Template> query(Section endpoint, Set<String> scope) {
    Map<String, Template> query = new LinkedHashMap<>();
    for (YamlNode.Entry entry : endpoint.namedEntries("query").orElse(List.of())) {
      String at = Section.join(endpoint.pathOf("query"), entry.key());
      endpoint
          .text(entry.value(), at)
          .flatMap(text -> template(text, entry.value().origin(), at, scope, endpoint))
          .ifPresent(template -> query.put(entry.key(), template));
    }
    return query;
  }

  private static Pager pager(Section paginate, Section endpoint) {
    String type = paginate.string("type", "none");
    if (endpoint.node("paginate").isPresent()) {
      paginate.require("type");
    }
    Optional<PagerType> named = PagerType.named(type);
    List<String> applies = new ArrayList<>(List.of("type"));
    if (named.isPresent()) {
      applies.addAll(named.get().keys());
    } else {
      paginate.report(
          "type", "unknown pager '" + type + "'; one of " + String.join(", ", PagerType.names()));
      applies = PAGINATE_KEYS;
    }
    for (String key : PAGINATE_KEYS) {
      if (!applies.contains(key) && paginate.node(key).isPresent()) {
        paginate.report(key, "does not apply to pager " + type);
      }
    }
    return named.orElse(PagerType.NONE).bind(paginate);
  }

  private static WindowSpec window(Section window, Section override) {
    TimeFormat format = TimeFormat.RFC3339_SECS;
    if (window.require("format")) {
      String name = window.string("format").orElse("rfc3339_secs");
      Optional<TimeFormat> named = TimeFormat.named(name);
      if (named.isPresent()) {
        format = named.get();
      } else {
        window.report(
            "format",
            "unknown format '" + name + "'; one of " + String.join(", ", TimeFormat.names()));
      }
    }
    Duration lookback =
        duration(override, "lookback").or(() -> duration(window, "lookback")).orElse(null);
    if (lookback == null) {
      if (override.node("lookback").isEmpty()) {
        window.require("lookback");
      }
      lookback = Duration.ofHours(1);
    }
    Optional<Duration> step = duration(window, "step");
    Duration settle =
        duration(override, "settle").or(() -> duration(window, "settle")).orElse(Duration.ZERO);
    if (lookback.isZero()) {
      window.report("lookback", "must be above 0");
    }
    if (step.isPresent() && step.get().isZero()) {
      window.report("step", "must be above 0");
    }
    return new WindowSpec(format, lookback, step, settle);
  }

  private static Optional<Duration> duration(Section section, String key) {
    Optional<String> text = section.string(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Optional<Duration> duration = DurationText.parse(text.get());
    if (duration.isEmpty()) {
      section.report(key, "must be a duration: a number and ms, s, m, h or d, e.g. 15m or 1h");
    }
    return duration;
  }
}
