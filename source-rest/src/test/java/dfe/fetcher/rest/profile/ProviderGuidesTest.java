package dfe.fetcher.rest.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.YamlNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shipped profile has a setup guide, {@code docs/providers/<name>.md}, that names each of its
 * units (as {@code `unit`}, read from the profile itself), and the guides' index lists it, so a
 * profile cannot ship, or gain a unit, without its guide saying so.
 */
class ProviderGuidesTest {

  /** Found from the module as {@link ProviderTableTest} finds the README. */
  private static final Path GUIDES = Path.of("..", "docs", "providers");

  static List<String> shipped() {
    return ShippedProfiles.NAMES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shipped")
  void theProfilesGuideExistsAndNamesEachOfItsUnits(String name) throws IOException {
    Path guide = GUIDES.resolve(name + ".md");
    assertThat(guide).as("the setup guide of the shipped profile %s", name).isRegularFile();
    String text = Files.readString(guide, StandardCharsets.UTF_8);

    List<String> units = units(name);
    assertThat(units).as("units of %s", name).isNotEmpty();
    assertThat(units)
        .as("units of profile %s that docs/providers/%s.md does not name as `unit`", name, name)
        .allSatisfy(unit -> assertThat(text).contains("`" + unit + "`"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shipped")
  void theGuidesIndexLinksTheProfilesGuide(String name) throws IOException {
    String index = Files.readString(GUIDES.resolve("README.md"), StandardCharsets.UTF_8);

    assertThat(index)
        .as("docs/providers/README.md links %s.md", name)
        .contains("(" + name + ".md)");
  }

  @Test
  void theRestSourcesPageLinksTheGuidesIndex() throws IOException {
    String page =
        Files.readString(GUIDES.resolveSibling("sources-rest.md"), StandardCharsets.UTF_8);

    assertThat(page).contains("(providers/README.md)");
  }

  /**
   * The units of a shipped profile, in order: each endpoint under its own name, or, when the
   * profile's {@code units} instantiate it ({@code units.<name>.endpoint}), under those names only.
   */
  private static List<String> units(String name) {
    Problems problems = new Problems();
    YamlNode root;
    try {
      root = ShippedProfiles.read(name, problems).orElseThrow();
    } catch (ConfigException e) {
      throw new AssertionError("shipped profile " + name + " is not YAML", e);
    }
    if (!(root instanceof YamlNode.Mapping profile)) {
      throw new AssertionError("shipped profile " + name + " is not a mapping");
    }
    List<YamlNode.Entry> named =
        child(profile, "units").orElse(null) instanceof YamlNode.Mapping mapping
            ? mapping.entries()
            : List.of();
    List<String> units = new ArrayList<>();
    if (child(profile, "endpoints").orElse(null) instanceof YamlNode.Sequence endpoints) {
      for (YamlNode endpoint : endpoints.items()) {
        Optional<String> unit =
            endpoint instanceof YamlNode.Mapping mapping
                ? text(child(mapping, "unit"))
                : Optional.empty();
        if (unit.isEmpty()) {
          continue;
        }
        List<String> instances =
            named.stream()
                .filter(
                    entry ->
                        entry.value() instanceof YamlNode.Mapping fields
                            && text(child(fields, "endpoint")).equals(unit))
                .map(YamlNode.Entry::key)
                .toList();
        units.addAll(instances.isEmpty() ? List.of(unit.get()) : instances);
      }
    }
    return units;
  }

  private static Optional<YamlNode> child(YamlNode.Mapping mapping, String key) {
    return mapping.entry(key).map(YamlNode.Entry::value);
  }

  private static Optional<String> text(Optional<YamlNode> node) {
    return node.filter(YamlNode.Scalar.class::isInstance).map(n -> ((YamlNode.Scalar) n).text());
  }
}
