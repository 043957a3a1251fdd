package dfe.fetcher.source.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A YAML node that remembers where it came from, so that a problem found while binding can name the
 * line and column (Jackson's tree forgets them). Immutable; environment overrides build a new tree.
 */
public sealed interface YamlNode {

  ConfigOrigin origin();

  /** {@code a string}, {@code a list}, ...: for "must be X, not Y" messages. */
  String description();

  /** A key of a mapping, with where the key itself was written. */
  record Entry(String key, ConfigOrigin keyOrigin, YamlNode value) {}

  /** A mapping in document order; keys are unique (the reader reports and drops duplicates). */
  record Mapping(List<Entry> entries, ConfigOrigin origin) implements YamlNode {
    public Mapping {
      entries = List.copyOf(entries);
    }

    public Optional<Entry> entry(String key) {
      return entries.stream().filter(e -> e.key().equals(key)).findFirst();
    }

    /** A copy with {@code entry} replacing the entry of the same key, or appended. */
    public Mapping with(Entry entry) {
      List<Entry> copy = new ArrayList<>(entries);
      for (int i = 0; i < copy.size(); i++) {
        if (copy.get(i).key().equals(entry.key())) {
          copy.set(i, entry);
          return new Mapping(copy, origin);
        }
      }
      copy.add(entry);
      return new Mapping(copy, origin);
    }

    @Override
    public String description() {
      return "a mapping";
    }
  }

  record Sequence(List<YamlNode> items, ConfigOrigin origin) implements YamlNode {
    public Sequence {
      items = List.copyOf(items);
    }

    public Sequence with(int index, YamlNode item) {
      List<YamlNode> copy = new ArrayList<>(items);
      copy.set(index, item);
      return new Sequence(copy, origin);
    }

    @Override
    public String description() {
      return "a list";
    }
  }

  /** How YAML typed a scalar. */
  enum ScalarKind {
    STRING("a string"),
    INTEGER("an integer"),
    FLOAT("a decimal number"),
    BOOLEAN("a boolean"),
    NULL("null");

    private final String description;

    ScalarKind(String description) {
      this.description = description;
    }
  }

  /**
   * A scalar.
   *
   * @param text the string value; for a scalar set by an environment variable, the variable's value
   *     verbatim (a string setting takes it as it is, without YAML quoting)
   * @param integer the value of an INTEGER scalar (YAML allows {@code 0x10} and {@code 1_000})
   * @param bool the value of a BOOLEAN scalar (YAML 1.1: {@code yes}, {@code on}, ... too)
   */
  record Scalar(ScalarKind kind, String text, BigInteger integer, boolean bool, ConfigOrigin origin)
      implements YamlNode {

    public boolean isFromEnvironment() {
      return origin instanceof ConfigOrigin.InEnvironment;
    }

    @Override
    public String description() {
      return kind.description;
    }
  }
}
