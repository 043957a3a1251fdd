package dfe.fetcher.rest.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A setting with {@code {{ name }}} placeholders: {@code vars.<name>}, {@code window.start}, {@code
 * window.end} and {@code unit.name}. Nothing else is a placeholder, and there are no filters or
 * defaults: a template reads a value or is refused at load ({@link #names} lists what it reads, the
 * binder checks each is defined where the template is used).
 *
 * @param text the template as written
 * @param parts literal text and placeholder names, alternating in reading order
 */
public record Template(String text, List<Part> parts) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
  private static final Pattern NAME =
      Pattern.compile("vars\\.[A-Za-z_][A-Za-z0-9_]*|window\\.start|window\\.end|unit\\.name");

  /** A piece of a template. */
  public sealed interface Part {}

  /** Text copied as it is. */
  public record Literal(String text) implements Part {}

  /** A placeholder's name, e.g. {@code vars.owner}. */
  public record Placeholder(String name) implements Part {}

  public Template {
    Objects.requireNonNull(text, "text");
    parts = List.copyOf(parts);
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the placeholder that is not one of the known names, or
   *     an unclosed {@code {{}
   */
  public static Template parse(String text) {
    List<Part> parts = new ArrayList<>();
    Matcher matcher = PLACEHOLDER.matcher(text);
    int at = 0;
    while (matcher.find()) {
      if (matcher.start() > at) {
        parts.add(new Literal(text.substring(at, matcher.start())));
      }
      String name = matcher.group(1);
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "'{{ "
                + name
                + " }}' is not a template variable; one of vars.<name>, window.start, window.end,"
                + " unit.name");
      }
      parts.add(new Placeholder(name));
      at = matcher.end();
    }
    String rest = text.substring(at);
    if (rest.contains("{{") || rest.contains("}}")) {
      throw new IllegalArgumentException("has an unclosed '{{' or a stray '}}'");
    }
    if (!rest.isEmpty()) {
      parts.add(new Literal(rest));
    }
    return new Template(text, parts);
  }

  /** A template without placeholders. */
  public static Template literal(String text) {
    return new Template(text, text.isEmpty() ? List.of() : List.of(new Literal(text)));
  }

  /** The names it reads, in reading order, each once. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    for (Part part : parts) {
      if (part instanceof Placeholder placeholder) {
        names.add(placeholder.name());
      }
    }
    return names;
  }

  /**
   * The values a unit's templates read: {@code vars.<name>} for each of {@code vars}, and {@code
   * unit.name}. The map is a fresh, mutable one, for a window's bounds to be added.
   */
  public static Map<String, String> values(Map<String, String> vars, String unit) {
    Map<String, String> values = new HashMap<>();
    vars.forEach((name, value) -> values.put("vars." + name, value));
    values.put("unit.name", unit);
    return values;
  }

  /** The text with the placeholders {@code values} has replaced, the others left as written. */
  public String renderKnown(Map<String, String> values) {
    return render(values, name -> "{{ " + name + " }}");
  }

  /**
   * The text with every placeholder replaced by its value.
   *
   * @throws IllegalStateException when a value is missing, which binding rules out
   */
  public String render(Map<String, String> values) {
    return render(
        values,
        name -> {
          throw new IllegalStateException("no value for {{ " + name + " }}");
        });
  }

  private String render(Map<String, String> values, Function<String, String> missing) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else if (part instanceof Placeholder placeholder) {
        String value = values.get(placeholder.name());
        out.append(value == null ? missing.apply(placeholder.name()) : value);
      }
    }
    return out.toString();
  }
}
