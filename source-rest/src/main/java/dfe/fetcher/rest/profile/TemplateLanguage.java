package dfe.fetcher.rest.profile;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.CelVarDecl;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The CEL environment a template's expressions compile in: CEL's standard functions and macros
 * (conditionals, {@code int()}, {@code string()}, {@code size()}, {@code contains}, {@code
 * startsWith}, timestamps and durations), CEL's string extension ({@code lowerAscii}, {@code
 * upperAscii}, {@code replace}, {@code split}, {@code substring}, {@code trim}, {@code join},
 * {@code indexOf}, ...), {@code lists.range(n)} of CEL's list extension, and the time functions
 * named after {@link TimeFormat}'s words:
 *
 * <ul>
 *   <li>{@code rfc3339_secs(t)}, {@code rfc3339_millis(t)}: RFC 3339 text at that precision, in
 *       UTC; with a second argument, a zone ({@code "Europe/Berlin"}, {@code "+02:00"}), in that
 *       zone with its offset;
 *   <li>{@code epoch_secs(t)}, {@code epoch_millis(t)}: an int;
 *   <li>{@code format_time(t, pattern)}, {@code format_time(t, pattern, zone)}: a strftime-like
 *       {@link TimePattern}, in UTC unless a zone is named.
 * </ul>
 *
 * <p>The compiler and the runtime are immutable and shared; a template's variables are declared per
 * template ({@link #check}). Nothing here reads the JVM's zone or locale.
 */
final class TemplateLanguage {

  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

  private static final String FORMAT_TIME = "format_time";
  private static final List<String> ZONED = List.of("rfc3339_secs", "rfc3339_millis", FORMAT_TIME);

  /**
   * {@code lists.range(n)}, the list {@code [0, 1, ..., n-1]}: what numbers the elements of a list
   * a macro walks ({@code lists.range(size(ids)).map(i, {'Id': 'm' + string(i), ...})}), as
   * CloudWatch's query ids must be.
   */
  private static final CelListsExtensions LISTS =
      CelExtensions.lists(CelListsExtensions.Function.RANGE);

  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setOptions(OPTIONS)
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addLibraries(CelExtensions.strings(), LISTS)
          .addFunctionDeclarations(declarations())
          .build();

  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder()
          .setOptions(OPTIONS)
          .addLibraries(CelExtensions.strings(), LISTS)
          .addFunctionBindings(bindings())
          .build();

  /** Names CEL resolves on its own (type names), which are no variable a template reads. */
  private static final Set<String> CEL_NAMES =
      Set.of(
          "int",
          "uint",
          "double",
          "bool",
          "string",
          "bytes",
          "list",
          "map",
          "null_type",
          "type",
          "dyn",
          "lists");

  private TemplateLanguage() {}

  /** A parsed expression and the qualified names it reads ({@code vars.x}, {@code env}). */
  record Parsed(CelAbstractSyntaxTree ast, Set<String> names) {}

  /**
   * Parses {@code source}.
   *
   * @throws IllegalArgumentException with CEL's reason and the character it points at
   */
  static Parsed parse(String source) {
    CelValidationResult parsed = COMPILER.parse(source, "template");
    if (parsed.hasError()) {
      throw new IllegalArgumentException("does not parse: " + describe(parsed.getErrors()));
    }
    CelAbstractSyntaxTree ast = astOf(parsed);
    Set<String> names = new LinkedHashSet<>();
    collect(ast.getExpr(), Set.of(), names);
    return new Parsed(ast, names);
  }

  /** A checked expression: what it yields, and the program that evaluates it. */
  record Checked(CelType type, CelRuntime.Program program) {}

  /**
   * Type-checks {@code parsed} with each of {@code declared} a variable of its type, and checks the
   * constant arguments of the time functions (a pattern, a zone).
   *
   * @throws IllegalArgumentException with CEL's reason (an unknown function, a type error)
   */
  static Checked check(Parsed parsed, Map<String, CelType> declared) {
    Map<String, CelType> read = new java.util.LinkedHashMap<>();
    for (String name : parsed.names()) {
      CelType type = declared.get(name);
      if (type != null) {
        read.put(name, type);
      } else if (name.indexOf('.') > 0) {
        // A field of a value declared whole (key.workspace_id): CEL selects it from the value.
        String root = name.substring(0, name.indexOf('.'));
        if (declared.containsKey(root)) {
          read.put(root, declared.get(root));
        }
      }
    }
    List<CelVarDecl> vars = new ArrayList<>();
    read.forEach((name, type) -> vars.add(CelVarDecl.newVarDeclaration(name, type)));
    CelValidationResult checked =
        COMPILER.toCompilerBuilder().addVarDeclarations(vars).build().check(parsed.ast());
    if (checked.hasError()) {
      throw new IllegalArgumentException("does not compile: " + describe(checked.getErrors()));
    }
    CelAbstractSyntaxTree ast = astOf(checked);
    checkConstants(ast.getExpr());
    try {
      return new Checked(ast.getResultType(), RUNTIME.createProgram(ast));
    } catch (CelEvaluationException e) {
      throw new IllegalArgumentException("CEL cannot plan it: " + e.getMessage(), e);
    }
  }

  private static String describe(List<CelIssue> issues) {
    CelIssue first = issues.get(0);
    return first.getMessage() + " (character " + (first.getSourceLocation().getColumn() + 1) + ")";
  }

  /**
   * The qualified names {@code expr} reads from outside: {@code root.field} for a selection on a
   * free identifier, the identifier alone otherwise. A macro's own variables are bound, not read.
   */
  private static void collect(CelExpr expr, Set<String> bound, Set<String> names) {
    switch (expr.getKind()) {
      case IDENT -> {
        String name = expr.ident().name();
        if (!bound.contains(name) && !CEL_NAMES.contains(name)) {
          names.add(name);
        }
      }
      case SELECT -> {
        CelExpr operand = expr.select().operand();
        if (operand.getKind() == CelExpr.ExprKind.Kind.IDENT
            && !bound.contains(operand.ident().name())) {
          names.add(operand.ident().name() + "." + expr.select().field());
        } else {
          collect(operand, bound, names);
        }
      }
      case CALL -> {
        expr.call().target().ifPresent(target -> collect(target, bound, names));
        expr.call().args().forEach(arg -> collect(arg, bound, names));
      }
      case LIST -> expr.list().elements().forEach(element -> collect(element, bound, names));
      case MAP ->
          expr.map()
              .entries()
              .forEach(
                  entry -> {
                    collect(entry.key(), bound, names);
                    collect(entry.value(), bound, names);
                  });
      case STRUCT -> expr.struct().entries().forEach(entry -> collect(entry.value(), bound, names));
      case COMPREHENSION -> {
        var loop = expr.comprehension();
        collect(loop.iterRange(), bound, names);
        collect(loop.accuInit(), bound, names);
        Set<String> inner = new HashSet<>(bound);
        inner.add(loop.iterVar());
        if (!loop.iterVar2().isEmpty()) {
          inner.add(loop.iterVar2());
        }
        inner.add(loop.accuVar());
        collect(loop.loopCondition(), inner, names);
        collect(loop.loopStep(), inner, names);
        collect(loop.result(), inner, names);
      }
      default -> {
        // A constant reads nothing.
      }
    }
  }

  /** A constant pattern or zone given to a time function is checked now, not at the request. */
  private static void checkConstants(CelExpr expr) {
    switch (expr.getKind()) {
      case CALL -> {
        String function = expr.call().function();
        List<CelExpr> args = expr.call().args();
        if (function.equals(FORMAT_TIME) && args.size() >= 2) {
          constantText(args.get(1))
              .flatMap(TimePattern::problem)
              .ifPresent(
                  problem -> {
                    throw new IllegalArgumentException(problem);
                  });
        }
        if (ZONED.contains(function)) {
          int zoneAt = function.equals(FORMAT_TIME) ? 2 : 1;
          if (args.size() > zoneAt) {
            constantText(args.get(zoneAt)).ifPresent(TemplateLanguage::zone);
          }
        }
        expr.call().target().ifPresent(TemplateLanguage::checkConstants);
        args.forEach(TemplateLanguage::checkConstants);
      }
      case SELECT -> checkConstants(expr.select().operand());
      case LIST -> expr.list().elements().forEach(TemplateLanguage::checkConstants);
      case MAP ->
          expr.map()
              .entries()
              .forEach(
                  entry -> {
                    checkConstants(entry.key());
                    checkConstants(entry.value());
                  });
      case COMPREHENSION -> {
        var loop = expr.comprehension();
        checkConstants(loop.iterRange());
        checkConstants(loop.accuInit());
        checkConstants(loop.loopStep());
        checkConstants(loop.result());
      }
      default -> {
        // Identifiers and constants call nothing.
      }
    }
  }

  private static Optional<String> constantText(CelExpr expr) {
    if (expr.getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && expr.constant().getKind() == CelConstant.Kind.STRING_VALUE) {
      return Optional.of(expr.constant().stringValue());
    }
    return Optional.empty();
  }

  /**
   * The zone {@code name} names.
   *
   * @throws IllegalArgumentException naming it when it names none
   */
  static ZoneId zone(String name) {
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "no time zone '"
              + name
              + "'; name an IANA zone such as Europe/Berlin, or an offset such as +02:00");
    }
  }

  private static List<CelFunctionDecl> declarations() {
    CelType ts = SimpleType.TIMESTAMP;
    CelType text = SimpleType.STRING;
    List<CelFunctionDecl> functions = new ArrayList<>();
    for (TimeFormat format : List.of(TimeFormat.RFC3339_SECS, TimeFormat.RFC3339_MILLIS)) {
      String name = format.configName();
      functions.add(
          CelFunctionDecl.newFunctionDeclaration(
              name,
              CelOverloadDecl.newGlobalOverload(name + "_timestamp", text, ts),
              CelOverloadDecl.newGlobalOverload(name + "_timestamp_string", text, ts, text)));
    }
    for (TimeFormat format : List.of(TimeFormat.EPOCH_SECS, TimeFormat.EPOCH_MILLIS)) {
      String name = format.configName();
      functions.add(
          CelFunctionDecl.newFunctionDeclaration(
              name, CelOverloadDecl.newGlobalOverload(name + "_timestamp", SimpleType.INT, ts)));
    }
    functions.add(
        CelFunctionDecl.newFunctionDeclaration(
            FORMAT_TIME,
            CelOverloadDecl.newGlobalOverload(FORMAT_TIME + "_timestamp_string", text, ts, text),
            CelOverloadDecl.newGlobalOverload(
                FORMAT_TIME + "_timestamp_string_string", text, ts, text, text)));
    return functions;
  }

  private static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> bindings = new ArrayList<>();
    for (TimeFormat format : List.of(TimeFormat.RFC3339_SECS, TimeFormat.RFC3339_MILLIS)) {
      String name = format.configName();
      bindings.add(
          CelFunctionBinding.from(
              name + "_timestamp", Instant.class, (Instant t) -> format.format(t)));
      bindings.add(
          CelFunctionBinding.from(
              name + "_timestamp_string",
              Instant.class,
              String.class,
              (Instant t, String zone) -> format.format(t, evaluatedZone(zone))));
    }
    bindings.add(
        CelFunctionBinding.from(
            "epoch_secs_timestamp", Instant.class, (Instant t) -> t.getEpochSecond()));
    bindings.add(
        CelFunctionBinding.from(
            "epoch_millis_timestamp", Instant.class, (Instant t) -> t.toEpochMilli()));
    bindings.add(
        CelFunctionBinding.from(
            FORMAT_TIME + "_timestamp_string",
            Instant.class,
            String.class,
            (Instant t, String pattern) -> formatTime(t, pattern, ZoneOffset.UTC)));
    bindings.add(
        CelFunctionBinding.from(
            FORMAT_TIME + "_timestamp_string_string",
            List.of(Instant.class, String.class, String.class),
            args ->
                formatTime((Instant) args[0], (String) args[1], evaluatedZone((String) args[2]))));
    return bindings;
  }

  private static String formatTime(Instant t, String pattern, ZoneId zone)
      throws CelEvaluationException {
    try {
      return TimePattern.format(t, pattern, zone);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(FORMAT_TIME + ": " + e.getMessage());
    }
  }

  private static ZoneId evaluatedZone(String name) throws CelEvaluationException {
    try {
      return zone(name);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static CelAbstractSyntaxTree astOf(CelValidationResult result) {
    try {
      return result.getAst();
    } catch (CelValidationException e) {
      throw new IllegalStateException("CEL reported no error yet gave no tree", e);
    }
  }
}
