package dfe.fetcher.rest.profile;

import dfe.fetcher.source.config.Names;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which units an instance runs, each an endpoint of the profile under a unit name with variables of
 * its own: the one place where a unit is told from the endpoint it runs.
 *
 * <ul>
 *   <li>Every endpoint is a unit of its own name, unless the profile's {@code units} instantiate it
 *       ({@code units.<name>.endpoint}): it then runs under those names only, each with its {@code
 *       vars} (m365's content types, one endpoint under seven names).
 *   <li>The instance's {@code units.<name>.vars} go over the unit's (the last layer: the profile's
 *       {@code vars}, the instance's, the endpoint's computed ones, the unit's).
 *   <li>An instance whose {@code units} names an {@code endpoint} lists its units itself: exactly
 *       the entries of its {@code units} run, each instantiating the endpoint (or the profile's
 *       unit) it names, or, without {@code endpoint}, the profile's unit of that name (a bucket
 *       prefix per unit, a subscription per unit).
 * </ul>
 *
 * @param units the units to bind, in order
 */
record UnitPlan(List<Unit> units) {

  /**
   * One unit to bind.
   *
   * @param name the unit's name (its store is {@code <connection>.<name>})
   * @param endpoint the profile's endpoint it runs
   * @param vars its own variables, over the connection's
   * @param override the instance's {@code units.<name>}; empty when it has none
   */
  record Unit(String name, Section endpoint, Map<String, String> vars, Optional<Section> override) {

    Unit {
      vars = Map.copyOf(vars);
    }
  }

  UnitPlan {
    units = List.copyOf(units);
  }

  /** What a shipped or profile unit is before the instance's say: its endpoint and its vars. */
  private record Shipped(Section endpoint, Map<String, String> vars) {}

  /**
   * The plan for {@code profile}'s endpoints and {@code units} under the instance's {@code
   * overrides} (its {@code units}, by name), every problem reported at its place: an endpoint or a
   * unit that names none of the profile's, a name used twice, an instance unit that is neither an
   * instantiation nor one of the profile's units.
   */
  static UnitPlan of(Section profile, Map<String, Section> overrides, Problems problems) {
    Map<String, Section> endpoints = new LinkedHashMap<>();
    for (Section endpoint :
        profile.requiredSections("endpoints", "endpoint", ProfileKeys.ENDPOINT_KEYS)) {
      String name = endpoint.requiredName("unit");
      if (name.isEmpty()) {
        continue;
      }
      Section earlier = endpoints.putIfAbsent(name, endpoint);
      if (earlier != null) {
        endpoint.report(
            "unit",
            "duplicate unit name '"
                + name
                + "' in this profile (first at "
                + earlier.originOf("unit").render()
                + ")");
      }
    }
    Map<String, List<Map.Entry<String, Shipped>>> instantiations = new LinkedHashMap<>();
    for (YamlNode.Entry entry : profile.namedEntries("units").orElse(List.of())) {
      Section unit = unitSection(profile, entry, ProfileKeys.PROFILE_UNIT_KEYS, problems);
      Optional<String> endpoint = unit.requiredString("endpoint");
      if (endpoint.isEmpty()) {
        continue;
      }
      if (!endpoints.containsKey(endpoint.get())) {
        unit.report("endpoint", noEndpoint(endpoint.get(), endpoints));
        continue;
      }
      if (endpoints.containsKey(entry.key())) {
        unit.report(
            unit.origin(),
            unit.path(),
            "is the name of one of the profile's endpoints; give the unit another name");
        continue;
      }
      instantiations
          .computeIfAbsent(endpoint.get(), e -> new ArrayList<>())
          .add(Map.entry(entry.key(), new Shipped(endpoints.get(endpoint.get()), vars(unit))));
    }
    Map<String, Shipped> shipped = new LinkedHashMap<>();
    endpoints.forEach(
        (name, endpoint) -> {
          List<Map.Entry<String, Shipped>> named = instantiations.get(name);
          if (named == null) {
            shipped.put(name, new Shipped(endpoint, Map.of()));
          } else {
            named.forEach(unit -> shipped.put(unit.getKey(), unit.getValue()));
          }
        });

    boolean listsItsOwn = overrides.values().stream().anyMatch(o -> o.node("endpoint").isPresent());
    List<Unit> units = new ArrayList<>();
    if (!listsItsOwn) {
      shipped.forEach(
          (name, unit) -> {
            Optional<Section> override = Optional.ofNullable(overrides.get(name));
            units.add(new Unit(name, unit.endpoint(), over(unit.vars(), override), override));
          });
      overrides.forEach(
          (name, override) -> {
            if (!shipped.containsKey(name)) {
              override.report(
                  override.origin(),
                  override.path(),
                  "the profile has no unit '"
                      + name
                      + "'; its units: "
                      + String.join(", ", shipped.keySet()));
            }
          });
      return new UnitPlan(units);
    }
    for (Map.Entry<String, Section> entry : overrides.entrySet()) {
      String name = entry.getKey();
      Section override = entry.getValue();
      Names.check(name, override.origin(), override.path(), problems);
      Optional<String> endpoint = override.string("endpoint");
      Shipped base;
      if (endpoint.isPresent()) {
        base = shipped.get(endpoint.get());
        if (base == null && endpoints.containsKey(endpoint.get())) {
          base = new Shipped(endpoints.get(endpoint.get()), Map.of());
        }
        if (base == null) {
          override.report("endpoint", noEndpoint(endpoint.get(), endpoints));
          continue;
        }
      } else {
        base = shipped.get(name);
        if (base == null) {
          override.report(
              override.origin(),
              override.path(),
              "the profile has no unit '"
                  + name
                  + "'; name the endpoint it runs under endpoint: (one of "
                  + String.join(", ", endpoints.keySet())
                  + ")");
          continue;
        }
      }
      units.add(
          new Unit(
              name,
              base.endpoint(),
              over(base.vars(), Optional.of(override)),
              Optional.of(override)));
    }
    return new UnitPlan(units);
  }

  private static String noEndpoint(String name, Map<String, Section> endpoints) {
    return "the profile has no endpoint '"
        + name
        + "'; its endpoints: "
        + String.join(", ", endpoints.keySet());
  }

  private static Section unitSection(
      Section parent, YamlNode.Entry entry, List<String> keys, Problems problems) {
    Section unit =
        Section.of(
            Optional.of(entry.value()),
            entry.keyOrigin(),
            Section.join(parent.pathOf("units"), entry.key()),
            keys,
            problems);
    Names.check(entry.key(), entry.keyOrigin(), unit.path(), problems);
    return unit;
  }

  /** {@code vars} with the override's {@code vars} over them. */
  private static Map<String, String> over(Map<String, String> vars, Optional<Section> override) {
    if (override.isEmpty()) {
      return vars;
    }
    Map<String, String> layered = new LinkedHashMap<>(vars);
    layered.putAll(vars(override.get()));
    return layered;
  }

  /** A unit's {@code vars}: strings, as an instance's {@code vars} are. */
  static Map<String, String> vars(Section unit) {
    Map<String, String> vars = new LinkedHashMap<>();
    for (YamlNode.Entry entry : unit.namedEntries("vars").orElse(List.of())) {
      unit.text(entry.value(), Section.join(unit.pathOf("vars"), entry.key()))
          .ifPresent(value -> vars.put(entry.key(), value));
    }
    return vars;
  }
}
