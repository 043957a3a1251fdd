package dfe.fetcher.rest;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.construct.Constructs;
import dfe.fetcher.rest.http.ConnectionBudget;
import dfe.fetcher.rest.http.QuotaHeaders;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.rest.profile.DurationText;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.Probe;
import dfe.fetcher.rest.profile.Template;
import dfe.fetcher.rest.profile.TemplateValues;
import dfe.fetcher.rest.profile.WindowSpec;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A bound {@code sources.rest} instance: its profile with the instance's variables, credentials and
 * unit overrides applied. Opening it creates an HTTP client of its own, closed with it.
 *
 * @param id the connection id
 * @param profile {@code inline}, or the shipped profile's name
 * @param baseUrl the profile's {@code base_url}; as a unit renders it ({@link #baseUrlOf}), its
 *     origin is the only one that unit's credentials go to
 * @param vars the profile's defaults overridden by the instance's {@code vars}
 * @param headers sent with every request of every endpoint
 * @param retry how failed requests are tried again
 * @param quota the response headers the profile's {@code quota.headers} reads into gauges
 * @param requestsPerSec the rate every request of a unit shares; empty for no limit
 * @param budget the instance's {@code rate} and {@code max_concurrent_requests}, which all its
 *     units share
 * @param credentials how requests authenticate
 * @param endpoints one per unit, in profile order
 * @param probe the profile's cheapest authenticated call, for {@code config-check --probe}
 */
public record RestConnection(
    String id,
    String profile,
    Template baseUrl,
    Map<String, String> vars,
    Map<String, Template> headers,
    RetryPolicy retry,
    QuotaHeaders quota,
    OptionalDouble requestsPerSec,
    ConnectionBudget budget,
    Credentials credentials,
    List<Endpoint> endpoints,
    Optional<Probe> probe)
    implements SourceConnection {

  public RestConnection {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(baseUrl, "baseUrl");
    vars = Collections.unmodifiableMap(new LinkedHashMap<>(vars));
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(quota, "quota");
    Objects.requireNonNull(requestsPerSec, "requestsPerSec");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(credentials, "credentials");
    endpoints = List.copyOf(endpoints);
    Objects.requireNonNull(probe, "probe");
  }

  @Override
  public List<SourceUnit> units() {
    List<SourceUnit> units = new ArrayList<>();
    for (Endpoint endpoint : endpoints) {
      TemplateValues values =
          TemplateValues.of(varsOf(endpoint.unit()), endpoint.unit()).withKnown(endpoint.vars());
      List<String> details = new ArrayList<>();
      details.add(
          "profile "
              + profile
              + ", "
              + endpoint.method()
              + " "
              + baseUrlOf(endpoint.unit())
              + endpoint.path().renderKnown(values)
              + ", auth "
              + credentials.mode().configName());
      details.add(
          "rows "
              + endpoint.decoder().configName()
              + endpoint.rowsAt().map(at -> " at " + at).orElse("")
              + ", at most "
              + endpoint.maxPages()
              + (endpoint.constructs().queue().isPresent() ? " pulls a tick" : " pages"));
      constructs(endpoint).ifPresent(details::add);
      endpoint
          .window()
          .ifPresent(
              window ->
                  details.add(
                      "window "
                          + window.format().configName()
                          + ", lookback "
                          + DurationText.format(window.lookback())
                          + window.step().map(s -> ", step " + DurationText.format(s)).orElse("")
                          + (window.settle().isZero()
                              ? ""
                              : ", settle " + DurationText.format(window.settle()))));
      units.add(
          new SourceUnit(
              endpoint.unit(),
              endpoint.enabled(),
              endpoint.shape(),
              endpoint.rowKey(),
              // A queue unit commits no checkpoint: the provider keeps what is unacknowledged.
              endpoint.shape() == Shape.TAIL && endpoint.constructs().queue().isEmpty()
                  ? Optional.of(
                      endpoint.window().flatMap(WindowSpec::cursorAt).isPresent()
                          ? Mark.Kind.FIELD_CURSOR
                          : Mark.Kind.WINDOW)
                  : Optional.empty(),
              details,
              endpoint.origin(),
              endpoint.configPath()));
    }
    return units;
  }

  /** What {@code config-check} says of an endpoint's constructs; empty when it has none. */
  private static Optional<String> constructs(Endpoint endpoint) {
    Constructs constructs = endpoint.constructs();
    if (constructs.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    if (!constructs.prelude().isEmpty()) {
      parts.add("prelude of " + constructs.prelude().size());
    }
    constructs
        .keyset()
        .ifPresent(
            keyset ->
                parts.add(
                    keyset.request().isPresent()
                        ? "keyset from "
                            + keyset.request().get().method()
                            + " "
                            + keyset.request().get().path().text()
                        : "keyset from a template"));
    constructs.second().ifPresent(stage -> parts.add(stage.describe()));
    constructs.queue().ifPresent(queue -> parts.add(queue.describe()));
    constructs.fold().ifPresent(fold -> parts.add("fold " + fold.configName() + " per listing"));
    return Optional.of("constructs: " + String.join("; ", parts));
  }

  /**
   * {@code base_url} as {@code unit} requests it, without trailing slashes: the one rendering its
   * requests, its credential origin, the {@code Link} targets it follows and {@code config-check}
   * all use, so {@code {{ unit.name }}} reads the same everywhere.
   */
  public String baseUrlOf(String unit) {
    String base = baseUrl.render(TemplateValues.of(varsOf(unit), unit));
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base;
  }

  /**
   * What {@code vars.*} reads for {@code unit}: the connection's {@code vars} with the unit's own
   * ({@code units.<name>.vars}) over them.
   */
  public Map<String, String> varsOf(String unit) {
    return endpoints.stream()
        .filter(endpoint -> endpoint.unit().equals(unit))
        .findFirst()
        .map(endpoint -> endpoint.varsOver(vars))
        .orElse(vars);
  }

  @Override
  public OpenConnection open(SourceRuntime runtime) throws SourceException {
    return new OpenRestConnection(this, runtime);
  }

  /**
   * Sends the profile's {@code probe} once, with the instance's credentials, to the origin of the
   * first enabled unit's {@code base_url}; reads no further than the status.
   */
  @Override
  public Optional<ProbeOutcome> probe(SourceRuntime runtime) throws InterruptedException {
    if (probe.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new RestProbe(this, probe.get(), runtime).send());
  }

  /** The variables and endpoints by name, credentials as their mode: safe to print. */
  @Override
  public String toString() {
    return "RestConnection[id="
        + id
        + ", profile="
        + profile
        + ", auth="
        + credentials.mode().configName()
        + ", units="
        + endpoints.stream().map(Endpoint::unit).toList()
        + "]";
  }
}
