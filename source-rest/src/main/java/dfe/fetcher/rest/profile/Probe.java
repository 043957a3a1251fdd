package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.auth.UnitAuth;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A profile's {@code probe}: the cheapest authenticated call of its API (GitHub's {@code GET
 * /user}), which {@code config-check --probe} sends once to tell whether an instance's credentials
 * work. Its answer is read no further than its status; nothing is landed.
 *
 * @param unit the unit whose {@code base_url}, credentials and window the probe takes; empty for
 *     the first enabled unit
 * @param method {@code GET} or {@code HEAD}
 * @param path appended to {@code base_url}, a template over the connection's variables
 * @param query query parameters, values templates, in order
 * @param expectStatus the statuses that say the credentials work; empty for any 2xx
 * @param baseUrl where it goes instead of its unit's {@code base_url}, a template over the
 *     connection's variables: an API whose cheap call is on a host of its own (AWS STS)
 * @param auth what it asks of the instance's credentials instead of its unit's (a signing name, a
 *     scope); {@link UnitAuth#NONE} for that unit's
 */
public record Probe(
    Optional<String> unit,
    String method,
    Template path,
    Map<String, Template> query,
    List<Integer> expectStatus,
    Optional<Template> baseUrl,
    UnitAuth auth) {

  public static final List<String> METHODS = List.of("GET", "HEAD");

  public Probe {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
    expectStatus = List.copyOf(expectStatus);
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(auth, "auth");
  }

  /** A probe to its unit's {@code base_url}, with that unit's credentials. */
  public Probe(
      Optional<String> unit,
      String method,
      Template path,
      Map<String, Template> query,
      List<Integer> expectStatus) {
    this(unit, method, path, query, expectStatus, Optional.empty(), UnitAuth.NONE);
  }

  /** Whether {@code status} says the credentials work. */
  public boolean expects(int status) {
    return expectStatus.isEmpty() ? status / 100 == 2 : expectStatus.contains(status);
  }
}
