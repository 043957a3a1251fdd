package dfe.fetcher.rest.profile;

import dev.cel.common.types.SimpleType;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses a profile's templates and compiles each against what is defined where it is used: the
 * variables (the profile's defaults under the instance's {@code vars}, and an endpoint's computed
 * {@code vars}), the unit's name, and in a tail endpoint the window's bounds. A template that reads
 * anything else, does not compile, or yields what its place cannot hold is reported at its place,
 * naming where to define a missing variable, and left out.
 */
final class TemplateBinder {

  private final String varsPath;
  private final Map<String, String> vars;
  private final Set<String> unitVars;

  /**
   * @param varsPath the instance's {@code vars}, where a missing variable is to be set
   * @param vars every variable, as bound
   */
  TemplateBinder(String varsPath, Map<String, String> vars) {
    this(varsPath, vars, Set.of());
  }

  private TemplateBinder(String varsPath, Map<String, String> vars, Set<String> unitVars) {
    this.varsPath = varsPath;
    this.vars = vars;
    this.unitVars = unitVars;
  }

  /**
   * This binder for one unit whose own {@code vars} go over the connection's: its templates read
   * them, and an endpoint's computed variable of the same name gives way to the unit's.
   */
  TemplateBinder forUnit(Map<String, String> own) {
    if (own.isEmpty()) {
      return this;
    }
    Map<String, String> layered = new LinkedHashMap<>(vars);
    layered.putAll(own);
    return new TemplateBinder(varsPath, layered, Set.copyOf(own.keySet()));
  }

  /**
   * Every variable, as bound: the profile's defaults under the instance's {@code vars}, and for one
   * unit its own over them.
   */
  Map<String, String> vars() {
    return vars;
  }

  /** What a template may read: every variable, the unit's name, and the window's bounds. */
  TemplateScope scope(boolean window) {
    return TemplateScope.of(varsPath, vars.keySet(), window);
  }

  Optional<Template> template(Section section, String key, TemplateScope scope, boolean required) {
    Optional<String> text = required ? section.requiredString(key) : section.string(key);
    return text.flatMap(
        t ->
            template(
                t, section.originOf(key), section.pathOf(key), scope, section, Template.Use.TEXT));
  }

  Optional<Template> template(
      String text,
      ConfigOrigin origin,
      String at,
      TemplateScope scope,
      Section reporter,
      Template.Use use) {
    try {
      return Optional.of(Template.parse(text, scope, use));
    } catch (Template.Refused e) {
      e.problems().forEach(problem -> reporter.report(origin, at, problem));
      return Optional.empty();
    }
  }

  Map<String, Template> headers(Section section, TemplateScope scope) {
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
          .flatMap(
              text -> template(text, entry.value().origin(), at, scope, section, Template.Use.TEXT))
          .ifPresent(template -> headers.put(entry.key(), template));
    }
    return headers;
  }

  /**
   * Each entry of the mapping at {@code key} as a template, put into {@code templates} over what it
   * holds (an endpoint's query over the profile's defaults, an override's over the endpoint's).
   */
  void putEach(Section section, String key, TemplateScope scope, Map<String, Template> templates) {
    for (YamlNode.Entry entry : section.namedEntries(key).orElse(List.of())) {
      String at = Section.join(section.pathOf(key), entry.key());
      section
          .text(entry.value(), at)
          .flatMap(
              text -> template(text, entry.value().origin(), at, scope, section, Template.Use.TEXT))
          .ifPresent(template -> templates.put(entry.key(), template));
    }
  }

  /** An endpoint's computed variables, in order, and the scope its templates compile in. */
  record Computed(Map<String, Template> vars, TemplateScope scope) {}

  /**
   * The computed variables under {@code vars} of each of {@code sections} (the profile's {@code
   * defaults}, then the endpoint), a later section's variable replacing an earlier one of the same
   * name in its place. Each is a template that may read the connection's variables and the computed
   * ones before it, and yields any value; its type is what later templates see. A name that is
   * already a connection variable is refused: the instance's {@code vars} would silently lose.
   */
  Computed computed(List<Section> sections, TemplateScope scope) {
    record Written(Section section, YamlNode.Entry entry) {}
    Map<String, Written> written = new LinkedHashMap<>();
    for (Section section : sections) {
      for (YamlNode.Entry entry : section.namedEntries("vars").orElse(List.of())) {
        String at = Section.join(section.pathOf("vars"), entry.key());
        if (unitVars.contains(entry.key())) {
          // The unit's own value is the last layer: the endpoint's template gives way to it.
          written.remove(entry.key());
        } else if (vars.containsKey(entry.key())) {
          section.report(
              entry.keyOrigin(),
              at,
              "is a variable of the connection (the profile's vars or "
                  + varsPath
                  + "); give the endpoint's variable another name");
        } else if (!entry.key().matches("[A-Za-z_][A-Za-z0-9_]*")) {
          section.report(entry.keyOrigin(), at, "is not a variable name: letters, digits and _");
        } else {
          // An endpoint's variable replaces the default's and takes its own place in the order.
          written.remove(entry.key());
          written.put(entry.key(), new Written(section, entry));
        }
      }
    }
    Map<String, Template> computed = new LinkedHashMap<>();
    TemplateScope at = scope;
    for (Map.Entry<String, Written> variable : written.entrySet()) {
      Section section = variable.getValue().section();
      YamlNode value = variable.getValue().entry().value();
      String path = Section.join(section.pathOf("vars"), variable.getKey());
      TemplateScope before = at;
      Optional<Template> template =
          section
              .text(value, path)
              .flatMap(
                  text ->
                      template(text, value.origin(), path, before, section, Template.Use.VARIABLE));
      if (template.isPresent()) {
        computed.put(variable.getKey(), template.get());
        at = at.with(variable.getKey(), template.get().type());
      } else {
        // Reported once, here: the templates that read it are not refused again for it.
        at = at.with(variable.getKey(), SimpleType.DYN);
      }
    }
    return new Computed(computed, at);
  }

  /** A window for {@link #tryRendering}: its bounds are any two instants. */
  private static final TemplateWindow SAMPLE_WINDOW =
      new TemplateWindow(
          Instant.parse("2026-01-01T00:00:00Z"),
          Instant.parse("2026-01-01T01:00:00Z"),
          TimeFormat.RFC3339_SECS);

  /**
   * Renders each of {@code endpoint}'s templates once with the variables as bound (and a window),
   * so one that fails on them ({@code int(vars.limit)} of a limit that is no number) is refused at
   * load, not on every tick; each problem is reported at the setting.
   */
  void tryRendering(Endpoint endpoint, Section reporter) {
    String at = endpoint.settingsPath();
    TemplateValues values;
    try {
      values =
          endpoint.values(
              vars,
              endpoint
                  .window()
                  .map(
                      w ->
                          new TemplateWindow(
                              SAMPLE_WINDOW.start(), SAMPLE_WINDOW.end(), w.format())));
    } catch (TemplateException e) {
      reporter.report(
          endpoint.origin(), at + ".vars", e.getMessage() + " (with the instance's vars)");
      return;
    }
    Map<String, Template> texts = new LinkedHashMap<>();
    texts.put(at + ".path", endpoint.path());
    endpoint.query().forEach((name, template) -> texts.put(at + ".query." + name, template));
    endpoint.headers().forEach((name, template) -> texts.put(at + ".headers." + name, template));
    texts.forEach(
        (path, template) ->
            tryRendering(
                reporter, endpoint, path, template.names(), values, () -> template.render(values)));
    endpoint
        .body()
        .ifPresent(
            body ->
                tryRendering(
                    reporter,
                    endpoint,
                    at + ".body",
                    body.names(),
                    values,
                    () -> body.render(values)));
  }

  private static void tryRendering(
      Section reporter,
      Endpoint endpoint,
      String at,
      Set<String> names,
      TemplateValues values,
      Runnable render) {
    if (!names.stream().allMatch(values::has)) {
      // It reads a variable that was refused, and reported, already.
      return;
    }
    try {
      render.run();
    } catch (TemplateException e) {
      reporter.report(endpoint.origin(), at, e.getMessage() + " (with the instance's vars)");
    }
  }

  /** Compiles every string of a POST body as a template; empty when one is refused. */
  Optional<BodyTemplate> body(YamlNode node, String at, TemplateScope scope, Section reporter) {
    List<Template> strings = new ArrayList<>();
    return strings(node, at, scope, reporter, strings)
        ? Optional.of(new BodyTemplate(node, strings))
        : Optional.empty();
  }

  private boolean strings(
      YamlNode node, String at, TemplateScope scope, Section reporter, List<Template> strings) {
    if (node instanceof YamlNode.Mapping mapping) {
      boolean ok = true;
      for (YamlNode.Entry entry : mapping.entries()) {
        ok &= strings(entry.value(), Section.join(at, entry.key()), scope, reporter, strings);
      }
      return ok;
    }
    if (node instanceof YamlNode.Sequence sequence) {
      boolean ok = true;
      for (int i = 0; i < sequence.items().size(); i++) {
        ok &= strings(sequence.items().get(i), at + "[" + i + "]", scope, reporter, strings);
      }
      return ok;
    }
    YamlNode.Scalar scalar = (YamlNode.Scalar) node;
    if (scalar.kind() == YamlNode.ScalarKind.STRING) {
      Optional<Template> template =
          template(scalar.text(), scalar.origin(), at, scope, reporter, Template.Use.JSON_VALUE);
      template.ifPresent(strings::add);
      return template.isPresent();
    }
    return true;
  }
}
