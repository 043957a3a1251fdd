package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses a profile's templates and checks that each reads only what is defined where it is used:
 * the variables (the profile's defaults under the instance's {@code vars}), the unit's name, and in
 * a tail endpoint the window's bounds. A template that reads anything else is reported, naming
 * where to define it, and left out.
 */
final class TemplateBinder {

  private final String varsPath;
  private final Map<String, String> vars;

  /**
   * @param varsPath the instance's {@code vars}, where a missing variable is to be set
   * @param vars every variable, as bound
   */
  TemplateBinder(String varsPath, Map<String, String> vars) {
    this.varsPath = varsPath;
    this.vars = vars;
  }

  /** The names a template may read: every variable, the unit's name, and the window's bounds. */
  Set<String> scope(boolean window) {
    Set<String> names = new LinkedHashSet<>();
    vars.keySet().forEach(name -> names.add("vars." + name));
    names.add("unit.name");
    if (window) {
      names.add("window.start");
      names.add("window.end");
    }
    return names;
  }

  Optional<Template> template(Section section, String key, Set<String> scope, boolean required) {
    Optional<String> text = required ? section.requiredString(key) : section.string(key);
    return text.flatMap(
        t -> template(t, section.originOf(key), section.pathOf(key), scope, section));
  }

  Optional<Template> template(
      String text, ConfigOrigin origin, String at, Set<String> scope, Section reporter) {
    Template template;
    try {
      template = Template.parse(text);
    } catch (IllegalArgumentException e) {
      reporter.report(origin, at, e.getMessage());
      return Optional.empty();
    }
    boolean ok = true;
    for (String name : template.names()) {
      if (scope.contains(name)) {
        continue;
      }
      ok = false;
      if (name.startsWith("window.")) {
        reporter.report(origin, at, "reads {{ " + name + " }}, which only a tail endpoint has");
      } else {
        reporter.report(
            origin,
            at,
            "reads {{ "
                + name
                + " }}, which is not defined; set "
                + name.substring("vars.".length())
                + " in "
                + varsPath
                + (vars.isEmpty() ? "" : " (defined: " + String.join(", ", vars.keySet()) + ")"));
      }
    }
    return ok ? Optional.of(template) : Optional.empty();
  }

  Map<String, Template> headers(Section section, Set<String> scope) {
    Map<String, Template> headers = new LinkedHashMap<>();
    for (YamlNode.Entry entry : section.namedEntries("headers").orElse(List.of())) {
      String at = Section.join(section.pathOf("headers"), entry.key());
      if (!HeaderNames.isToken(entry.key())) {
        section.report(entry.keyOrigin(), at, "is not a header name");
        continue;
      }
      if (HeaderNames.isSetByClient(entry.key())) {
        section.report(
            entry.keyOrigin(),
            at,
            "is set by the client"
                + (entry.key().equalsIgnoreCase("authorization") ? " from auth" : "")
                + "; leave it out");
        continue;
      }
      section
          .text(entry.value(), at)
          .flatMap(text -> template(text, entry.value().origin(), at, scope, section))
          .ifPresent(template -> headers.put(entry.key(), template));
    }
    return headers;
  }

  /**
   * Each entry of the mapping at {@code key} as a template, put into {@code templates} over what it
   * holds (an override's query over the endpoint's).
   */
  void putEach(Section section, String key, Set<String> scope, Map<String, Template> templates) {
    for (YamlNode.Entry entry : section.namedEntries(key).orElse(List.of())) {
      String at = Section.join(section.pathOf(key), entry.key());
      section
          .text(entry.value(), at)
          .flatMap(text -> template(text, entry.value().origin(), at, scope, section))
          .ifPresent(template -> templates.put(entry.key(), template));
    }
  }

  /** Checks every string of a POST body as a template; false when one is refused. */
  boolean body(YamlNode node, String at, Set<String> scope, Section reporter) {
    if (node instanceof YamlNode.Mapping mapping) {
      boolean ok = true;
      for (YamlNode.Entry entry : mapping.entries()) {
        ok &= body(entry.value(), Section.join(at, entry.key()), scope, reporter);
      }
      return ok;
    }
    if (node instanceof YamlNode.Sequence sequence) {
      boolean ok = true;
      for (int i = 0; i < sequence.items().size(); i++) {
        ok &= body(sequence.items().get(i), at + "[" + i + "]", scope, reporter);
      }
      return ok;
    }
    YamlNode.Scalar scalar = (YamlNode.Scalar) node;
    if (scalar.kind() == YamlNode.ScalarKind.STRING) {
      return template(scalar.text(), scalar.origin(), at, scope, reporter).isPresent();
    }
    return true;
  }
}
