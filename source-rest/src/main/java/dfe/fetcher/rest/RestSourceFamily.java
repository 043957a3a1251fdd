package dfe.fetcher.rest;

import dfe.fetcher.rest.auth.Credentials;
import dfe.fetcher.rest.construct.ConstructType;
import dfe.fetcher.rest.http.ConnectionBudget;
import dfe.fetcher.rest.http.QuotaHeaders;
import dfe.fetcher.rest.http.RetryPolicy;
import dfe.fetcher.rest.profile.ProfileBinder;
import dfe.fetcher.rest.profile.ProfileKeys;
import dfe.fetcher.rest.profile.ShippedProfiles;
import dfe.fetcher.rest.profile.Template;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code sources.rest}: instances of REST profiles. A profile (shipped, or inline under {@code
 * profile:}) describes an API's shape; the instance binds it to one deployment with {@code vars},
 * {@code auth} and per-unit overrides under {@code units}.
 *
 * <pre>{@code
 * sources:
 *   rest:
 *     gh:
 *       profile: github-issues
 *       topic: github
 *       vars: {owner: acme, repo: fetcher}
 *       auth: {mode: bearer, token: env:GITHUB_TOKEN}
 *       units:
 *         issues: {lookback: 7d}
 *       rate: {requests_per_sec: 5, burst: 10}   # shared by all the units
 *       max_concurrent_requests: 2
 * }</pre>
 */
public final class RestSourceFamily implements SourceFamily {

  static final List<String> CONNECTION_KEYS =
      List.of("profile", "vars", "auth", "units", "rate", "max_concurrent_requests");

  @Override
  public String name() {
    return "rest";
  }

  @Override
  public List<String> connectionKeys() {
    return CONNECTION_KEYS;
  }

  @Override
  public List<List<String>> knownKeys() {
    List<List<String>> keys = new ArrayList<>();
    keys.addAll(
        List.of(
            CONNECTION_KEYS,
            ProfileKeys.AUTH_KEYS,
            ProfileKeys.UNIT_KEYS,
            ProfileKeys.PROFILE_UNIT_KEYS,
            ProfileKeys.PROFILE_KEYS,
            ProfileKeys.PROFILE_AUTH_KEYS,
            ProfileKeys.RETRY_KEYS,
            ProfileKeys.RATE_KEYS,
            ProfileKeys.QUOTA_KEYS,
            ProfileKeys.QUOTA_HEADER_KEYS,
            ProfileKeys.CONNECTION_RATE_KEYS,
            ProfileKeys.ERRORS_KEYS,
            ProfileKeys.DEFAULTS_KEYS,
            ProfileKeys.PROBE_KEYS,
            ProfileKeys.ENDPOINT_KEYS,
            ProfileKeys.ROWS_KEYS,
            ProfileKeys.PAGINATE_KEYS,
            ProfileKeys.WINDOW_KEYS,
            ProfileKeys.CONSTRUCT_KEYS,
            ConstructType.REQUEST_KEYS,
            ConstructType.PRELUDE_KEYS));
    for (ConstructType type : ConstructType.values()) {
      keys.add(type.keys());
    }
    return keys;
  }

  @Override
  public SourceConnection bind(String id, Section connection, BindContext context) {
    Problems problems = context.problems();
    Map<String, String> vars = new LinkedHashMap<>();
    for (YamlNode.Entry entry : connection.namedEntries("vars").orElse(List.of())) {
      connection
          .text(entry.value(), Section.join(connection.pathOf("vars"), entry.key()))
          .ifPresent(value -> vars.put(entry.key(), value));
    }
    Map<String, Section> overrides = new LinkedHashMap<>();
    for (YamlNode.Entry entry : connection.namedEntries("units").orElse(List.of())) {
      overrides.put(
          entry.key(),
          Section.of(
              Optional.of(entry.value()),
              entry.keyOrigin(),
              Section.join(connection.pathOf("units"), entry.key()),
              ProfileKeys.UNIT_KEYS,
              problems));
    }
    String profileName = "inline";
    Section profile;
    if (!connection.require("profile")) {
      return empty(id);
    }
    YamlNode profileNode = connection.node("profile").orElseThrow();
    if (profileNode instanceof YamlNode.Scalar) {
      Optional<String> name = connection.string("profile");
      if (name.isEmpty()) {
        return empty(id);
      }
      profileName = name.get();
      Optional<YamlNode> root;
      try {
        root = ShippedProfiles.read(profileName, problems);
      } catch (ConfigException e) {
        return empty(id);
      }
      if (root.isEmpty()) {
        connection.report(
            "profile",
            "no shipped profile named '"
                + profileName
                + "'; one of "
                + String.join(", ", ShippedProfiles.NAMES)
                + ", or an inline profile (a mapping)");
        return empty(id);
      }
      profile =
          Section.of(
              root,
              connection.originOf("profile"),
              "profiles/" + profileName,
              ProfileKeys.PROFILE_KEYS,
              problems);
    } else {
      profile = connection.section("profile", ProfileKeys.PROFILE_KEYS);
    }
    ProfileBinder binder =
        new ProfileBinder(connection.pathOf("vars"), connection, profile, vars, overrides, context);
    return binder.bind(id, profileName);
  }

  private static RestConnection empty(String id) {
    return new RestConnection(
        id,
        "inline",
        Template.literal(""),
        Map.of(),
        Map.of(),
        RetryPolicy.DEFAULT,
        QuotaHeaders.NONE,
        OptionalDouble.empty(),
        ConnectionBudget.NONE,
        Credentials.none(),
        List.of(),
        Optional.empty());
  }
}
