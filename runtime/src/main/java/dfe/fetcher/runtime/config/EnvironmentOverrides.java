package dfe.fetcher.runtime.config;

import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.YamlTreeReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code DFE_FETCHER_<PATH>} environment variables to the file's tree before it is bound,
 * so an override is checked exactly like the file. {@code __} separates levels, segments are
 * lower-cased and match a key of the file case-insensitively (so a connection id written {@code
 * Inventory} is still reachable), a number selects an existing list item. The value is typed as one
 * YAML scalar; a string setting takes it verbatim. Missing levels are created; a level the file
 * holds as a scalar is reported. Variables are applied in name order; only their names are logged.
 */
final class EnvironmentOverrides {

  static final String PREFIX = "DFE_FETCHER_";

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.config");

  private final Set<String> notSettings;
  private final Problems problems;
  private final List<String> appliedSettings = new ArrayList<>();

  EnvironmentOverrides(Set<String> notSettings, Problems problems) {
    this.notSettings = notSettings;
    this.problems = problems;
  }

  /**
   * The tree with every override applied. A root that is not a mapping is returned as it is (the
   * binder reports it).
   */
  /**
   * Logs each override applied, once the configuration they made was accepted: a variable that
   * names no setting is refused, never reported as applied first.
   */
  void logApplied() {
    for (String applied : appliedSettings) {
      int split = applied.indexOf('=');
      LOG.info(
          "event=config_override variable={} setting={}",
          applied.substring(0, split),
          applied.substring(split + 1));
    }
  }

  Optional<YamlNode> apply(
      Optional<YamlNode> root, ConfigOrigin rootOrigin, Map<String, String> environment) {
    YamlNode tree = root.orElse(new YamlNode.Mapping(List.of(), rootOrigin));
    if (!(tree instanceof YamlNode.Mapping)) {
      return root;
    }
    boolean changed = false;
    for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
      String name = variable.getKey();
      if (!name.startsWith(PREFIX) || notSettings.contains(name)) {
        continue;
      }
      ConfigOrigin origin = new ConfigOrigin.InEnvironment(name);
      List<String> segments = segments(name.substring(PREFIX.length()));
      if (segments.isEmpty()) {
        problems.add(
            origin,
            "",
            "is not a setting path: name levels after "
                + PREFIX
                + " separated by '__', e.g. DFE_FETCHER_SCHEDULER__DEFAULT_INTERVAL_SECS");
        continue;
      }
      YamlNode.Scalar value = YamlTreeReader.scalarOfVariable(variable.getValue(), origin);
      Optional<Override> applied = set(tree, segments, 0, "", value, origin);
      if (applied.isPresent()) {
        tree = applied.get().tree();
        changed = true;
        appliedSettings.add(name + "=" + applied.get().setting());
      }
    }
    return changed || root.isPresent() ? Optional.of(tree) : root;
  }

  private static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    for (String segment : path.split("__", -1)) {
      if (segment.isEmpty()) {
        return List.of();
      }
      segments.add(segment.toLowerCase(Locale.ROOT));
    }
    return segments;
  }

  /** A tree with one variable applied, and the path of the setting it set. */
  private record Override(YamlNode tree, String setting) {}

  /** {@code node} with the value at {@code segments[index..]} set; empty when reported. */
  private Optional<Override> set(
      YamlNode node,
      List<String> segments,
      int index,
      String path,
      YamlNode.Scalar value,
      ConfigOrigin origin) {
    String segment = segments.get(index);
    boolean last = index == segments.size() - 1;
    if (node instanceof YamlNode.Mapping mapping) {
      Optional<YamlNode.Entry> existing =
          mapping.entries().stream().filter(e -> e.key().equalsIgnoreCase(segment)).findFirst();
      String key = existing.map(YamlNode.Entry::key).orElse(segment);
      String childPath = Section.join(path, key);
      if (last) {
        return Optional.of(
            new Override(mapping.with(new YamlNode.Entry(key, origin, value)), childPath));
      }
      YamlNode child =
          existing
              .map(YamlNode.Entry::value)
              .filter(
                  v -> !(v instanceof YamlNode.Scalar s && s.kind() == YamlNode.ScalarKind.NULL))
              .orElse(new YamlNode.Mapping(List.of(), origin));
      ConfigOrigin keyOrigin = existing.map(YamlNode.Entry::keyOrigin).orElse(origin);
      return set(child, segments, index + 1, childPath, value, origin)
          .map(
              applied ->
                  new Override(
                      mapping.with(new YamlNode.Entry(key, keyOrigin, applied.tree())),
                      applied.setting()));
    }
    if (node instanceof YamlNode.Sequence sequence) {
      int item = itemIndex(segment, sequence.items().size());
      if (item < 0) {
        problems.add(
            origin,
            path,
            "is a list: the next level must be the index of an existing item (0 to "
                + (sequence.items().size() - 1)
                + "), not '"
                + segment
                + "'");
        return Optional.empty();
      }
      String childPath = path + "[" + item + "]";
      if (last) {
        return Optional.of(new Override(sequence.with(item, value), childPath));
      }
      return set(sequence.items().get(item), segments, index + 1, childPath, value, origin)
          .map(applied -> new Override(sequence.with(item, applied.tree()), applied.setting()));
    }
    problems.add(
        origin,
        path,
        "is "
            + node.description()
            + " at "
            + node.origin().render()
            + ", so it has no setting '"
            + segment
            + "' to override");
    return Optional.empty();
  }

  private static int itemIndex(String segment, int size) {
    if (!segment.matches("\\d{1,9}")) {
      return -1;
    }
    int index = Integer.parseInt(segment);
    return index < size ? index : -1;
  }
}
