package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.RestConnection;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.auth.PerUnitCredentials;
import dfe.fetcher.rest.auth.UnitAuth;
import dfe.fetcher.rest.http.ConnectionBudget;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.rest.http.QuotaGauge;
import dfe.fetcher.rest.http.QuotaHeaders;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Binds one profile (shipped or inline) to one instance: every key and word checked, every template
 * checked against the variables defined where it is used, each problem reported at its {@code
 * FILE:LINE:COL} and path, all at once. This class binds the profile's top level ({@code vars},
 * {@code base_url}, {@code headers}, {@code retry}, {@code rate}) and the instance's budget ({@code
 * rate}, {@code max_concurrent_requests}); {@link CredentialsBinder} the {@code auth}, {@link
 * EndpointBinder} the endpoints, their pagers and windows.
 */
public final class ProfileBinder {

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
    ProfileMaturity.bind(profile, connection, id, profileName);
    TemplateBinder templates = new TemplateBinder(varsPath, vars);
    TemplateScope common = templates.scope(false);
    Optional<Template> baseUrl = templates.template(profile, "base_url", common, true);
    Map<String, Template> headers = templates.headers(profile, common);
    RetryPolicy retry = retry(profile.section("retry", ProfileKeys.RETRY_KEYS));
    QuotaHeaders quota =
        profile.node("quota").isPresent()
            ? quota(profile.section("quota", ProfileKeys.QUOTA_KEYS))
            : QuotaHeaders.NONE;
    OptionalDouble rate = rate(profile.section("rate", ProfileKeys.RATE_KEYS));
    ConnectionBudget budget = budget(connection);
    Section profileAuth = profile.section("auth", ProfileKeys.PROFILE_AUTH_KEYS);
    Credentials credentials = new CredentialsBinder(connection, context).bind(profileAuth);
    Section defaults = profile.section("defaults", ProfileKeys.DEFAULTS_KEYS);
    EndpointBinder endpointBinder = new EndpointBinder(connection, context, templates, defaults);
    UnitPlan plan = UnitPlan.of(profile, overrides, context.problems());
    List<Endpoint> endpoints = endpointBinder.bind(profile, plan);
    credentials = PerUnitCredentials.wrap(credentials, endpointBinder.unitAuth());
    Optional<Probe> probe =
        profile.node("probe").isPresent()
            ? probe(profile.section("probe", ProfileKeys.PROBE_KEYS), templates, endpoints)
            : Optional.empty();
    RestConnection bound =
        new RestConnection(
            id,
            profileName,
            baseUrl.orElse(Template.literal("")),
            vars,
            headers,
            retry,
            quota,
            rate,
            budget,
            credentials,
            endpoints,
            probe);
    if (baseUrl.isPresent()) {
      checkBaseUrl(bound, endpoints);
    }
    return bound;
  }

  /** Each unit's {@code base_url}, as it requests it; one problem reported once. */
  private void checkBaseUrl(RestConnection bound, List<Endpoint> endpoints) {
    Set<String> reported = new HashSet<>();
    List<String> units = endpoints.stream().map(Endpoint::unit).toList();
    for (String unit : units.isEmpty() ? List.of("") : units) {
      String rendered;
      try {
        rendered = bound.baseUrlOf(unit);
      } catch (TemplateException e) {
        if (reported.add(e.getMessage())) {
          reportBaseUrl(e.getMessage());
        }
        continue;
      }
      checkBaseUrl(rendered).filter(reported::add).ifPresent(this::reportBaseUrl);
      TemplateValues values = TemplateValues.of(bound.varsOf(unit), unit);
      bound
          .headers()
          .forEach(
              (name, template) -> {
                try {
                  template.render(values);
                } catch (TemplateException e) {
                  if (reported.add(name + e.getMessage())) {
                    profile.report(
                        profile.originOf("headers"),
                        Section.join(profile.pathOf("headers"), name),
                        e.getMessage() + " (with the instance's vars)");
                  }
                }
              });
    }
  }

  private void reportBaseUrl(String problem) {
    profile.report("base_url", problem + " (as rendered with the instance's vars)");
  }

  private static Optional<String> checkBaseUrl(String rendered) {
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
    return Optional.ofNullable(problem);
  }

  /**
   * The profile's {@code probe}, its templates over the connection's variables (and the window's
   * bounds when it names a tail unit); empty when the profile names none.
   */
  private static Optional<Probe> probe(
      Section probe, TemplateBinder templates, List<Endpoint> endpoints) {
    Optional<String> unit = probe.string("unit");
    Optional<Endpoint> named =
        unit.flatMap(name -> endpoints.stream().filter(e -> e.unit().equals(name)).findFirst());
    if (unit.isPresent() && named.isEmpty()) {
      probe.report(
          "unit",
          "the profile has no unit '"
              + unit.get()
              + "'; its units: "
              + String.join(", ", endpoints.stream().map(Endpoint::unit).toList()));
    }
    TemplateScope scope = templates.scope(named.flatMap(Endpoint::window).isPresent());
    Optional<Template> path = templates.template(probe, "path", scope, true);
    path.flatMap(template -> UriPathCheck.problem(template.text()))
        .ifPresent(problem -> probe.report("path", problem));
    if (probe.string("path").filter(p -> !p.startsWith("/") && !p.startsWith("{{")).isPresent()) {
      probe.report("path", "must start with '/' (it is appended to base_url)");
    }
    String method = probe.string("method", "GET");
    if (!Probe.METHODS.contains(method)) {
      probe.report(
          "method", "unknown method '" + method + "'; one of " + String.join(", ", Probe.METHODS));
    }
    Map<String, Template> query = new LinkedHashMap<>();
    templates.putEach(probe, "query", scope, query);
    List<Integer> expect = new ArrayList<>();
    Optional<YamlNode> statuses = probe.node("expect_status");
    if (statuses.isPresent()) {
      boolean ok =
          statuses.get() instanceof YamlNode.Sequence sequence && !sequence.items().isEmpty();
      if (ok) {
        for (YamlNode item : ((YamlNode.Sequence) statuses.get()).items()) {
          if (item instanceof YamlNode.Scalar scalar
              && scalar.kind() == YamlNode.ScalarKind.INTEGER
              && scalar.integer().compareTo(BigInteger.valueOf(100)) >= 0
              && scalar.integer().compareTo(BigInteger.valueOf(599)) <= 0) {
            expect.add(scalar.integer().intValue());
          } else {
            ok = false;
          }
        }
      }
      if (!ok) {
        probe.report("expect_status", "must be a list of HTTP statuses, e.g. [200, 204]");
      }
    }
    Optional<Template> baseUrl =
        templates.template(probe, "base_url", templates.scope(false), false);
    UnitAuth auth = UnitAuthBinder.bind(probe);
    return path.map(p -> new Probe(unit, method, p, query, expect, baseUrl, auth));
  }

  /**
   * The profile's {@code quota.headers}: for each gauge it names, the response header read into it.
   * A name that is not a header's, or one that carries a credential, is refused: a gauge holds a
   * number an API sends about its quota, never a secret.
   */
  private static QuotaHeaders quota(Section quota) {
    Section headers = quota.section("headers", QuotaGauge.words());
    Map<QuotaGauge, String> named = new EnumMap<>(QuotaGauge.class);
    for (QuotaGauge gauge : QuotaGauge.values()) {
      Optional<String> header = headers.string(gauge.word());
      if (header.isEmpty()) {
        continue;
      }
      String name = header.get();
      if (!HeaderNames.isToken(name)) {
        headers.report(gauge.word(), "'" + name + "' is not a header name");
      } else if (HeaderNames.carriesCredentials(name)) {
        headers.report(
            gauge.word(),
            "'"
                + name
                + "' reads as a header that carries a credential; a quota gauge reads a"
                + " header that counts requests, e.g. X-RateLimit-Remaining");
      } else {
        named.put(gauge, name);
      }
    }
    boolean anyNamed = QuotaGauge.words().stream().anyMatch(w -> headers.node(w).isPresent());
    if (quota.require("headers") && !anyNamed) {
      quota.report(
          "headers",
          "names no header; set remaining, limit or reset, e.g. remaining: X-RateLimit-Remaining");
    }
    return new QuotaHeaders(named);
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

  /**
   * The instance's {@code rate} ({@code requests_per_sec}, {@code burst}) and {@code
   * max_concurrent_requests}, shared by all its units.
   */
  private static ConnectionBudget budget(Section connection) {
    Section rate = connection.section("rate", ProfileKeys.CONNECTION_RATE_KEYS);
    OptionalDouble perSec = rate(rate);
    int burst = rate.smallInteger("burst", 1, 1, 10_000);
    if (rate.node("requests_per_sec").isEmpty() && rate.node("burst").isPresent()) {
      rate.report("burst", "applies with requests_per_sec only");
    }
    OptionalLong concurrent = connection.integer("max_concurrent_requests", 1, 1_000);
    return new ConnectionBudget(
        perSec,
        burst,
        concurrent.isPresent()
            ? OptionalInt.of((int) concurrent.getAsLong())
            : OptionalInt.empty());
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
}
