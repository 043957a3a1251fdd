package dfe.fetcher.rest.profile;

import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The README's table of the provider profiles, written from the shipped profiles themselves (their
 * units, the auth modes they accept, their maturity), so the table cannot drift from what ships: a
 * test holds the README's copy to this rendering.
 */
public final class ProviderTable {

  /** The marks around the table in the README. */
  public static final String BEGIN =
      "<!-- providers:begin (generated from the shipped profiles) -->";

  public static final String END = "<!-- providers:end -->";

  /** Shipped profiles that are not providers of the catalogue: the older single-API ones. */
  static final Set<String> NOT_PROVIDERS =
      Set.of("github-issues", "okta-system-log", "runzero-assets", "generic-json");

  private ProviderTable() {}

  /** The table, a line per provider profile in the order they are shipped, with its header. */
  public static String render() {
    StringBuilder table = new StringBuilder();
    table.append("| provider | units | auth modes | maturity |\n");
    table.append("|---|---|---|---|\n");
    for (String name : ShippedProfiles.NAMES) {
      if (NOT_PROVIDERS.contains(name)) {
        continue;
      }
      YamlNode.Mapping profile = profile(name);
      List<String> units = units(profile);
      List<String> modes = new ArrayList<>();
      if (child(profile, "auth").orElse(null) instanceof YamlNode.Mapping auth
          && child(auth, "accepts").orElse(null) instanceof YamlNode.Sequence accepts) {
        for (YamlNode mode : accepts.items()) {
          modes.add("`" + text(mode) + "`");
        }
      }
      String maturity = child(profile, "maturity").map(ProviderTable::text).orElse("stable");
      table
          .append("| `")
          .append(name)
          .append("` | ")
          .append(units.size())
          .append(": ")
          .append(String.join(", ", units))
          .append(" | ")
          .append(modes.isEmpty() ? "any" : String.join(", ", modes))
          .append(" | ")
          .append(maturity)
          .append(" |\n");
    }
    return table.toString();
  }

  /**
   * The profile's units as {@link UnitPlan} names them: each endpoint under its own name, or under
   * the names of the profile's {@code units} that instantiate it.
   */
  private static List<String> units(YamlNode.Mapping profile) {
    List<YamlNode.Entry> named =
        child(profile, "units").orElse(null) instanceof YamlNode.Mapping mapping
            ? mapping.entries()
            : List.of();
    List<String> units = new ArrayList<>();
    if (child(profile, "endpoints").orElse(null) instanceof YamlNode.Sequence endpoints) {
      for (YamlNode endpoint : endpoints.items()) {
        if (!(endpoint instanceof YamlNode.Mapping mapping)) {
          continue;
        }
        Optional<String> name = child(mapping, "unit").map(ProviderTable::text);
        if (name.isEmpty()) {
          continue;
        }
        List<String> instances =
            named.stream()
                .filter(
                    unit ->
                        unit.value() instanceof YamlNode.Mapping fields
                            && child(fields, "endpoint").map(ProviderTable::text).equals(name))
                .map(YamlNode.Entry::key)
                .toList();
        units.addAll(instances.isEmpty() ? List.of(name.get()) : instances);
      }
    }
    return units;
  }

  private static YamlNode.Mapping profile(String name) {
    Problems problems = new Problems();
    try {
      Optional<YamlNode> root = ShippedProfiles.read(name, problems);
      if (root.orElse(null) instanceof YamlNode.Mapping mapping) {
        return mapping;
      }
    } catch (ConfigException e) {
      throw new IllegalStateException("shipped profile " + name + " is not YAML", e);
    }
    throw new IllegalStateException("shipped profile " + name + " is not a mapping");
  }

  private static Optional<YamlNode> child(YamlNode.Mapping mapping, String key) {
    return mapping.entry(key).map(YamlNode.Entry::value);
  }

  private static String text(YamlNode node) {
    return node instanceof YamlNode.Scalar scalar ? scalar.text() : node.description();
  }
}
