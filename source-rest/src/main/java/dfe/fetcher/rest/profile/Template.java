package dfe.fetcher.rest.profile;

import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A setting with {@code {{ expression }}} parts, each a CEL expression ({@link TemplateLanguage})
 * over what its {@link TemplateScope} defines: {@code vars.<name>}, {@code unit.name}, and in a
 * tail endpoint {@code window.start} and {@code window.end}. {@code {{ vars.owner }}} and {@code {{
 * window.start }}} are expressions too, and read as they always have.
 *
 * <p>A template is compiled against its scope when it is bound, so one that does not parse, reads a
 * name not defined where it is used, has a type error CEL can see, or yields what its place cannot
 * hold is refused at load ({@link #parse}). Rendering evaluates each expression with one request's
 * {@link TemplateValues}.
 *
 * <p>Two templates are equal when they are the same text: what they mean in their scope.
 *
 * @param text the template as written
 * @param parts literal text and expressions, alternating in reading order
 */
public record Template(String text, List<Part> parts) {

  private static final Pattern EXPRESSION = Pattern.compile("\\{\\{(.*?)}}", Pattern.DOTALL);
  private static final String KNOWN = "one of vars.<name>, window.start, window.end, unit.name";

  /** Where a template stands, which says what it may yield. */
  public enum Use {
    /** A path, query value, header or URL: text (a string, number, bool or timestamp). */
    TEXT,
    /** A string of a JSON body: as {@link #TEXT}, or when it is one expression, any JSON value. */
    JSON_VALUE,
    /** An endpoint's computed variable: any value; where it is read says what it may be. */
    VARIABLE
  }

  /** A template refused at load, with each of its problems. */
  public static final class Refused extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final transient List<String> problems;

    Refused(List<String> problems) {
      super(String.join("; ", problems));
      this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
      return problems;
    }
  }

  /** A piece of a template. */
  public sealed interface Part {}

  /** Text copied as it is. */
  public record Literal(String text) implements Part {}

  /**
   * An expression as written (trimmed), its type and its program; equal by what was written.
   *
   * @param names the qualified names it reads, e.g. {@code vars.owner}
   */
  public record Expression(
      String source, Set<String> names, CelType type, CelRuntime.Program program) implements Part {

    @Override
    public boolean equals(Object other) {
      return other instanceof Expression that && source.equals(that.source);
    }

    @Override
    public int hashCode() {
      return source.hashCode();
    }

    Object evaluate(TemplateValues values) {
      try {
        return program.eval(values.activation());
      } catch (CelEvaluationException e) {
        throw new TemplateException(
            "'{{ " + source + " }}' cannot be evaluated: " + e.getMessage());
      }
    }
  }

  public Template {
    Objects.requireNonNull(text, "text");
    parts = List.copyOf(parts);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Template that && text.equals(that.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /**
   * Parses and compiles {@code text} against {@code scope}.
   *
   * @throws Refused naming the expression and what is wrong with it, each problem once: an unclosed
   *     {@code {{}, a name not defined in the scope (saying where to define it), a parse or type
   *     error, or a value its place cannot hold
   */
  public static Template parse(String text, TemplateScope scope, Use use) {
    List<Part> parts = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Matcher matcher = EXPRESSION.matcher(text);
    int at = 0;
    while (matcher.find()) {
      if (matcher.start() > at) {
        parts.add(new Literal(text.substring(at, matcher.start())));
      }
      String source = matcher.group(1).trim();
      try {
        parts.add(expression(source, scope));
      } catch (Refused e) {
        problems.addAll(e.problems());
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
      at = matcher.end();
    }
    String rest = text.substring(at);
    if (rest.contains("{{") || rest.contains("}}")) {
      problems.add("has an unclosed '{{' or a stray '}}'");
    }
    if (!rest.isEmpty()) {
      parts.add(new Literal(rest));
    }
    if (!problems.isEmpty()) {
      throw new Refused(problems);
    }
    Template template = new Template(text, parts);
    template.checkUse(use);
    return template;
  }

  private static Expression expression(String source, TemplateScope scope) {
    if (source.isEmpty()) {
      throw new IllegalArgumentException("'{{ }}' is empty; write an expression, e.g. vars.name");
    }
    TemplateLanguage.Parsed parsed;
    try {
      parsed = TemplateLanguage.parse(source);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'{{ " + source + " }}' " + e.getMessage());
    }
    List<String> problems = new ArrayList<>();
    for (String name : parsed.names()) {
      if (!scope.defines(name)) {
        problems.add(undefined(source, name, scope));
      }
    }
    if (!problems.isEmpty()) {
      throw new Refused(problems);
    }
    try {
      TemplateLanguage.Checked checked = TemplateLanguage.check(parsed, scope.names());
      return new Expression(source, parsed.names(), checked.type(), checked.program());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'{{ " + source + " }}' " + e.getMessage());
    }
  }

  private static String undefined(String source, String name, TemplateScope scope) {
    if (name.startsWith("vars.")) {
      List<String> defined = scope.vars();
      return "reads {{ "
          + name
          + " }}, which is not defined; set "
          + name.substring("vars.".length())
          + " in "
          + scope.varsPath()
          + (defined.isEmpty() ? "" : " (defined: " + String.join(", ", defined) + ")");
    }
    if ((name.equals("window.start") || name.equals("window.end")) && !scope.hasWindow()) {
      return "reads {{ " + name + " }}, " + scope.windowless();
    }
    for (String value : List.of("key", "item", "ids", "ack_ids")) {
      if (name.equals(value) || name.startsWith(value + ".")) {
        return "reads {{ "
            + name
            + " }}, which only "
            + switch (value) {
              case "key" -> "an endpoint with construct.keyset";
              case "item" -> "a construct.manifest item request";
              case "ack_ids" -> "a construct.queue ack_request";
              default -> "a construct.lookup request";
            }
            + " has";
      }
    }
    if (name.equals("vars") || name.equals("window") || name.equals("unit")) {
      return "'{{ " + source + " }}' reads " + name + " as a whole; read one name of it, " + KNOWN;
    }
    return source.equals(name)
        ? "'{{ " + source + " }}' is not a template variable; " + KNOWN
        : "'{{ " + source + " }}' reads " + name + ", which is not a template variable; " + KNOWN;
  }

  private void checkUse(Use use) {
    boolean whole = parts.size() == 1 && parts.get(0) instanceof Expression;
    for (Part part : parts) {
      if (part instanceof Expression expression) {
        boolean fits =
            switch (use) {
              case TEXT -> isText(expression.type());
              case JSON_VALUE -> whole ? isJson(expression.type()) : isText(expression.type());
              case VARIABLE -> whole || isText(expression.type());
            };
        if (!fits) {
          throw new Refused(
              List.of(
                  "'{{ "
                      + expression.source()
                      + " }}' yields "
                      + expression.type().name()
                      + ", which "
                      + (use == Use.TEXT || !whole
                          ? "cannot be written as text (a string, number, bool or timestamp)"
                          : "a JSON value cannot hold")));
        }
      }
    }
  }

  private static boolean isText(CelType type) {
    CelKind kind = type.kind();
    return kind == CelKind.STRING
        || kind == CelKind.INT
        || kind == CelKind.UINT
        || kind == CelKind.DOUBLE
        || kind == CelKind.BOOL
        || kind == CelKind.TIMESTAMP
        || kind == CelKind.DYN;
  }

  private static boolean isJson(CelType type) {
    CelKind kind = type.kind();
    if (kind == CelKind.LIST) {
      return type.parameters().stream().allMatch(Template::isJson);
    }
    if (kind == CelKind.MAP) {
      CelKind key = type.parameters().get(0).kind();
      return (key == CelKind.STRING || key == CelKind.DYN) && isJson(type.parameters().get(1));
    }
    return isText(type) || kind == CelKind.NULL_TYPE;
  }

  /** A template without expressions. */
  public static Template literal(String text) {
    return new Template(text, text.isEmpty() ? List.of() : List.of(new Literal(text)));
  }

  /** The names it reads, in reading order, each once. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    for (Part part : parts) {
      if (part instanceof Expression expression) {
        names.addAll(expression.names());
      }
    }
    return names;
  }

  /** What it yields: an expression's type when it is one expression alone, otherwise a string. */
  public CelType type() {
    return parts.size() == 1 && parts.get(0) instanceof Expression expression
        ? expression.type()
        : SimpleType.STRING;
  }

  /**
   * What it yields with {@code values}: the expression's value when it is one expression alone (a
   * number stays a number), otherwise the text.
   *
   * @throws TemplateException when an expression cannot be evaluated
   */
  public Object value(TemplateValues values) {
    if (parts.size() == 1 && parts.get(0) instanceof Expression expression) {
      return expression.evaluate(values);
    }
    return render(values);
  }

  /**
   * The text with every expression replaced by its value, written as text.
   *
   * @throws TemplateException when an expression cannot be evaluated or yields what text cannot
   *     hold
   */
  public String render(TemplateValues values) {
    return render(values, UnaryOperator.identity());
  }

  /**
   * As {@link #render(TemplateValues)}, with what each expression yields passed through {@code
   * escape} (a path's percent-encoding) and the literal text as written.
   */
  public String render(TemplateValues values, UnaryOperator<String> escape) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else if (part instanceof Expression expression) {
        out.append(escape.apply(values.text(expression.evaluate(values), expression.source())));
      }
    }
    return out.toString();
  }

  /**
   * The text with the expressions whose names {@code values} all has rendered, the others left as
   * written ({@code {{ window.start }}} in what {@code config-check} prints).
   */
  public String renderKnown(TemplateValues values) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else if (part instanceof Expression expression) {
        if (expression.names().stream().allMatch(values::has)) {
          try {
            out.append(values.text(expression.evaluate(values), expression.source()));
            continue;
          } catch (TemplateException e) {
            // Shown as written: the request reports it when it is rendered.
          }
        }
        out.append("{{ ").append(expression.source()).append(" }}");
      }
    }
    return out.toString();
  }
}
