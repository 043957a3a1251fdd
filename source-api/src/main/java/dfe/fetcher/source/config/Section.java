package dfe.fetcher.source.config;

import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.Shape;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One mapping of the configuration being bound: typed reads of its keys, each reporting what is
 * wrong at the node's place and path and then carrying on, so a load reports every problem. A key
 * whose value is YAML null counts as absent: the default applies.
 */
public final class Section {

  private final Optional<YamlNode.Mapping> mapping;
  private final String path;
  private final ConfigOrigin origin;
  private final Problems problems;
  private final boolean wellFormed;

  private Section(
      Optional<YamlNode.Mapping> mapping,
      String path,
      ConfigOrigin origin,
      Problems problems,
      boolean wellFormed) {
    this.mapping = mapping;
    this.path = path;
    this.origin = origin;
    this.problems = problems;
    this.wellFormed = wellFormed;
  }

  /**
   * The section at {@code path}; reports a node that is not a mapping, and every key not in {@code
   * allowedKeys}.
   *
   * @param whereAbsent where to report a missing required key when the section itself is absent
   */
  public static Section of(
      Optional<YamlNode> node,
      ConfigOrigin whereAbsent,
      String path,
      List<String> allowedKeys,
      Problems problems) {
    if (node.isEmpty()) {
      return new Section(Optional.empty(), path, whereAbsent, problems, true);
    }
    if (!(node.get() instanceof YamlNode.Mapping mapping)) {
      problems.add(node.get().origin(), path, "must be a mapping, not " + node.get().description());
      return new Section(Optional.empty(), path, node.get().origin(), problems, false);
    }
    for (YamlNode.Entry entry : mapping.entries()) {
      if (!allowedKeys.contains(entry.key())) {
        problems.add(
            entry.keyOrigin(),
            join(path, entry.key()),
            "unknown key; allowed keys: " + String.join(", ", allowedKeys));
      }
    }
    return new Section(Optional.of(mapping), path, mapping.origin(), problems, true);
  }

  public static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  public String path() {
    return path;
  }

  public ConfigOrigin origin() {
    return origin;
  }

  public String pathOf(String key) {
    return join(path, key);
  }

  /** The value of {@code key}, unless it is absent or null. */
  public Optional<YamlNode> node(String key) {
    return mapping
        .flatMap(m -> m.entry(key))
        .map(YamlNode.Entry::value)
        .filter(
            value ->
                !(value instanceof YamlNode.Scalar scalar
                    && scalar.kind() == YamlNode.ScalarKind.NULL
                    && !scalar.isFromEnvironment()));
  }

  /** Where {@code key}'s value is, or where this section is when the key is absent. */
  public ConfigOrigin originOf(String key) {
    return node(key).map(YamlNode::origin).orElse(origin);
  }

  public Section section(String key, List<String> allowedKeys) {
    return Section.of(node(key), origin, pathOf(key), allowedKeys, problems);
  }

  /** Reports {@code key} as required when absent; true when present. */
  public boolean require(String key) {
    if (node(key).isPresent()) {
      return true;
    }
    if (wellFormed) {
      problems.add(origin, pathOf(key), "is required");
    }
    return false;
  }

  public Optional<String> string(String key) {
    return node(key).flatMap(node -> text(node, pathOf(key)));
  }

  public String string(String key, String fallback) {
    return string(key).orElse(fallback);
  }

  public Optional<String> requiredString(String key) {
    return require(key) ? string(key) : Optional.empty();
  }

  /** The text of a string scalar; an environment variable's value counts as one, verbatim. */
  public Optional<String> text(YamlNode node, String at) {
    if (node instanceof YamlNode.Scalar scalar
        && (scalar.kind() == YamlNode.ScalarKind.STRING || scalar.isFromEnvironment())) {
      return Optional.of(scalar.text());
    }
    String hint =
        node instanceof YamlNode.Scalar scalar && scalar.kind() != YamlNode.ScalarKind.NULL
            ? " (quote it to make it a string)"
            : "";
    problems.add(node.origin(), at, "must be a string, not " + node.description() + hint);
    return Optional.empty();
  }

  /** An integer in {@code [min, max]}; empty when absent or reported. */
  public OptionalLong integer(String key, long min, long max) {
    Optional<YamlNode> node = node(key);
    if (node.isEmpty()) {
      return OptionalLong.empty();
    }
    if (!(node.get() instanceof YamlNode.Scalar scalar
        && scalar.kind() == YamlNode.ScalarKind.INTEGER)) {
      problems.add(
          node.get().origin(), pathOf(key), "must be an integer, not " + node.get().description());
      return OptionalLong.empty();
    }
    BigInteger value = scalar.integer();
    if (value.compareTo(BigInteger.valueOf(min)) < 0) {
      problems.add(scalar.origin(), pathOf(key), "must be at least " + min + ", was " + value);
      return OptionalLong.empty();
    }
    if (value.compareTo(BigInteger.valueOf(max)) > 0) {
      problems.add(scalar.origin(), pathOf(key), "must be at most " + max + ", was " + value);
      return OptionalLong.empty();
    }
    return OptionalLong.of(value.longValueExact());
  }

  public long integer(String key, long fallback, long min, long max) {
    return integer(key, min, max).orElse(fallback);
  }

  public int smallInteger(String key, int fallback, int min, int max) {
    return (int) integer(key, min, max).orElse(fallback);
  }

  public boolean bool(String key, boolean fallback) {
    Optional<YamlNode> node = node(key);
    if (node.isEmpty()) {
      return fallback;
    }
    if (node.get() instanceof YamlNode.Scalar scalar
        && scalar.kind() == YamlNode.ScalarKind.BOOLEAN) {
      return scalar.bool();
    }
    problems.add(
        node.get().origin(),
        pathOf(key),
        "must be a boolean (true or false), not " + node.get().description());
    return fallback;
  }

  /**
   * The required unit shape at {@code key}: {@code dump} or {@code tail}; {@code incremental}, the
   * name REST endpoints used before, is read as {@code tail} for one release. {@link Shape#DUMP}
   * when absent or unknown (and reported).
   */
  public Shape shape(String key) {
    if (!require(key)) {
      return Shape.DUMP;
    }
    String name = string(key).orElse("dump");
    return switch (name) {
      case "dump" -> Shape.DUMP;
      case "tail", "incremental" -> Shape.TAIL;
      default -> {
        report(key, "unknown shape '" + name + "'; one of dump, tail");
        yield Shape.DUMP;
      }
    };
  }

  /**
   * The items of the required list {@code key} as sections ({@code key[i]}) with {@code
   * allowedKeys}: a family's units, stores or endpoints. An absent list is reported as required, an
   * empty one as needing at least one {@code item}; either way the answer is empty.
   */
  public List<Section> requiredSections(String key, String item, List<String> allowedKeys) {
    if (!require(key)) {
      return List.of();
    }
    Optional<List<YamlNode>> items = list(key);
    if (items.isEmpty()) {
      return List.of();
    }
    if (items.get().isEmpty()) {
      report(key, "needs at least one " + item);
    }
    List<Section> sections = new ArrayList<>();
    for (int i = 0; i < items.get().size(); i++) {
      YamlNode node = items.get().get(i);
      sections.add(
          Section.of(
              Optional.of(node),
              node.origin(),
              pathOf(key) + "[" + i + "]",
              allowedKeys,
              problems));
    }
    return sections;
  }

  /** The items of a list; empty when absent or reported. */
  public Optional<List<YamlNode>> list(String key) {
    Optional<YamlNode> node = node(key);
    if (node.isEmpty()) {
      return Optional.empty();
    }
    if (node.get() instanceof YamlNode.Sequence sequence) {
      return Optional.of(sequence.items());
    }
    problems.add(
        node.get().origin(), pathOf(key), "must be a list, not " + node.get().description());
    return Optional.empty();
  }

  /** The entries of a mapping whose keys are names the operator chose (ids, property names). */
  public Optional<List<YamlNode.Entry>> namedEntries(String key) {
    Optional<YamlNode> node = node(key);
    if (node.isEmpty()) {
      return Optional.empty();
    }
    if (node.get() instanceof YamlNode.Mapping named) {
      return Optional.of(named.entries());
    }
    problems.add(
        node.get().origin(), pathOf(key), "must be a mapping, not " + node.get().description());
    return Optional.empty();
  }

  /** The entry for {@code key} as written, to report at the key rather than at its value. */
  public Optional<YamlNode.Entry> entry(String key) {
    return mapping.flatMap(m -> m.entry(key));
  }

  /** A required name ({@link Names}): reported when absent or malformed; "" stands in then. */
  public String requiredName(String key) {
    String name = requiredString(key).orElse("");
    if (node(key).isPresent()) {
      Names.check(name, originOf(key), pathOf(key), problems);
    }
    return name;
  }

  /** An optional {@code row_key}: a JSON pointer naming a field, e.g. {@code /id}. */
  public Optional<String> rowKey(String key) {
    Optional<String> pointer = string(key);
    if (pointer.isEmpty()) {
      return pointer;
    }
    if (pointer.get().isEmpty()) {
      problems.add(
          originOf(key),
          pathOf(key),
          "must name a field, e.g. /id (an empty pointer is the whole record)");
      return Optional.empty();
    }
    try {
      RowKey.at(pointer.get());
    } catch (IllegalArgumentException e) {
      problems.add(originOf(key), pathOf(key), e.getMessage());
      return Optional.empty();
    }
    return pointer;
  }

  /** Reports {@code message} at {@code key}'s value (or this section when it is absent). */
  public void report(String key, String message) {
    problems.add(originOf(key), pathOf(key), message);
  }

  /** Reports {@code message} at {@code node}, whose path is {@code at}. */
  public void report(YamlNode node, String at, String message) {
    problems.add(node.origin(), at, message);
  }

  /** Reports {@code message} at {@code origin} and {@code at}. */
  public void report(ConfigOrigin where, String at, String message) {
    problems.add(where, at, message);
  }
}
