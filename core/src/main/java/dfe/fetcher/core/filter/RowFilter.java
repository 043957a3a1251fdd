package dfe.fetcher.core.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.CelVarDecl;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.FrameKind;
import dfe.fetcher.core.envelope.RawRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A connection's {@code filter:}, a CEL expression compiled once and evaluated on every row.
 *
 * <p><b>What the expression sees.</b> The top-level keys of the evaluated JSON object are its
 * variables. On a dump the driver hands over the row frame, so {@code record.alive == true} reads
 * the provider's field under the frame's {@code record}; on a tail unit it hands over the record
 * itself, so the same test reads {@code alive == true}. Every variable is {@code dyn}: which keys a
 * row has is only known when it arrives. JSON values become CEL values as {@code int} (integers
 * that fit 64 bits), {@code double} (fractions, exponents, and integers beyond 64 bits), {@code
 * string}, {@code bool}, {@code null}, {@code list} and {@code map}.
 *
 * <p><b>What is enabled.</b> The standard macros ({@code has}, {@code all}, {@code exists}, {@code
 * exists_one}, {@code map}, {@code filter}) and numeric comparison across int, uint and double, so
 * {@code record.n > 1} holds for {@code 2} and {@code 2.5} alike. Equality is decided on values at
 * run time, not on static types: {@code 1 == 1.0} and {@code size(record.tags) == 2.0} are true,
 * and {@code "1" == 1} is false rather than refused. CEL compares an int with a double as two
 * doubles, exactly only up to 2<sup>53</sup> in magnitude; two ints compare exactly. A name CEL
 * already gives a meaning to, such as the type names {@code int} or {@code string}, keeps that
 * meaning and does not read a field.
 *
 * <p><b>Verdicts.</b> {@link #evaluate} gives {@link FilterVerdict#PASS} when the expression is
 * {@code true}, {@link FilterVerdict#DROP} when it is {@code false}, and a {@link
 * FilterVerdict.DropError} with the reason when the row cannot be judged: the payload is not valid
 * JSON, a field the expression reads is missing, an operation fails on the row's values, or the
 * result is not a boolean. A payload that is valid JSON but not an object (an array, a string, a
 * number, {@code null}) passes without being evaluated.
 *
 * <p><b>When errors surface.</b> {@link #compile} refuses an expression that does not parse, that
 * calls an unknown function or misuses a known one where the types are known, or whose result can
 * never be a boolean; a compiled filter never fails for a reason that is not in the row.
 *
 * <p><b>Threads.</b> A RowFilter is immutable: its fields are final and what they hold (the
 * expression, the set of variable names, CEL's {@code @Immutable} program) never changes, and
 * {@link #evaluate} keeps its state on the stack. One instance may be shared by any number of
 * threads without locking. A hot reload compiles a new instance and swaps the reference.
 *
 * <p><b>Cost.</b> Each evaluation parses the payload once with a streaming reader and converts only
 * the top-level fields the expression names.
 */
public final class RowFilter {

  private static final String SOURCE_NAME = "filter";

  /** The row frame's field that holds the record. */
  private static final String RECORD = "record";

  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();

  // CEL's compiler and runtime are immutable; these hold no state between compilations.
  private static final CelCompiler STANDARD_COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setOptions(OPTIONS)
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .build();

  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS).build();

  private final String expression;
  private final Set<String> variables;
  private final CelRuntime.Program program;

  /**
   * The fields of a row frame's {@code record} the expression selects, when it reads the record
   * only through them; null when it may read the whole record.
   */
  private final Set<String> recordFields;

  private RowFilter(
      String expression,
      Set<String> variables,
      CelRuntime.Program program,
      Set<String> recordFields) {
    this.expression = expression;
    this.variables = variables;
    this.program = program;
    this.recordFields = recordFields;
  }

  /**
   * Compiles {@code expression}, as written in the config.
   *
   * @throws FilterCompileException when the expression does not parse, does not type-check, or can
   *     never yield a boolean; the message carries CEL's {@code filter:<line>:<column>} and a caret
   *     under the place
   */
  public static RowFilter compile(String expression) throws FilterCompileException {
    Objects.requireNonNull(expression, "expression");
    CelValidationResult parsed = STANDARD_COMPILER.parse(expression, SOURCE_NAME);
    if (parsed.hasError()) {
      throw new FilterCompileException(expression, parsed.getErrorString());
    }
    DynamicExpression prepared = DynamicExpression.prepare(astOf(parsed));
    Set<String> variables =
        prepared.freeIdentifiers().stream()
            .filter(name -> !isKnownToCel(name))
            .collect(Collectors.toCollection(TreeSet::new));
    CelCompiler checker =
        STANDARD_COMPILER
            .toCompilerBuilder()
            .addVarDeclarations(
                variables.stream()
                    .map(name -> CelVarDecl.newVarDeclaration(name, SimpleType.DYN))
                    .toList())
            .build();
    CelValidationResult checked = checker.check(prepared.ast());
    if (checked.hasError()) {
      throw new FilterCompileException(expression, checked.getErrorString());
    }
    CelAbstractSyntaxTree ast = astOf(checked);
    CelType resultType = ast.getResultType();
    if (resultType.kind() != CelKind.BOOL && resultType.kind() != CelKind.DYN) {
      throw new FilterCompileException(
          expression,
          "ERROR: "
              + SOURCE_NAME
              + ": the expression yields "
              + resultType.name()
              + ", never a bool; a filter must be true to keep a row or false to drop it");
    }
    try {
      return new RowFilter(
          expression,
          Set.copyOf(variables),
          RUNTIME.createProgram(ast),
          prepared.fieldsRead().get(RECORD));
    } catch (CelEvaluationException e) {
      throw new FilterCompileException(
          expression, "ERROR: " + SOURCE_NAME + ": CEL cannot plan it: " + e.getMessage());
    }
  }

  /** Judges the JSON payload handed over for a row: the frame on a dump, the record otherwise. */
  public FilterVerdict evaluate(byte[] json) {
    Objects.requireNonNull(json, "json");
    Optional<Map<String, Object>> read;
    try {
      read = JsonVariables.read(json, variables);
    } catch (JsonProcessingException e) {
      return new FilterVerdict.DropError("not valid JSON: " + e.getOriginalMessage());
    }
    if (read.isEmpty()) {
      return FilterVerdict.PASS;
    }
    return evaluate(read.get());
  }

  /**
   * Judges a row frame of a dump from its parts, as {@link #evaluate(byte[])} judges its encoded
   * JSON, without the frame being encoded: the head's fields are the frame's own top-level
   * variables ({@code kind} is {@code "row"}) and {@code record} is the record converted, of an
   * object only the fields the expression selects when it reads nothing else of it. For a record
   * that is one JSON value, as {@link RawRecord} requires, the verdict is the same as for the
   * encoded frame; the record is only parsed when the expression reads it.
   */
  public FilterVerdict evaluateRowFrame(Frame.Row frame) {
    Objects.requireNonNull(frame, "frame");
    FrameHead head = frame.head();
    Map<String, Object> values = new HashMap<>();
    for (String name : variables) {
      switch (name) {
        case "kind" -> values.put(name, FrameKind.ROW.wireName());
        case "snapshot_id" -> values.put(name, head.snapshotId());
        case "snapshot_at" -> values.put(name, head.snapshotAt());
        case "timestamp" -> values.put(name, head.timestamp());
        case "store" -> values.put(name, head.store());
        case "seq" -> values.put(name, head.seq());
        case RECORD -> {
          try {
            values.put(name, recordValue(frame.record().bytes()));
          } catch (JsonProcessingException e) {
            return new FilterVerdict.DropError("not valid JSON: " + e.getOriginalMessage());
          }
        }
        default -> {
          // Not a field of a row frame: left out, so the verdict names it missing.
        }
      }
    }
    return evaluate(values);
  }

  /**
   * The record as the expression sees it: of an object only the fields it selects, when it reads
   * nothing else (the rest is skipped, not converted); otherwise the whole value.
   */
  private Object recordValue(byte[] record) throws JsonProcessingException {
    if (recordFields != null) {
      Optional<Map<String, Object>> selected = JsonVariables.read(record, recordFields);
      if (selected.isPresent()) {
        return selected.get();
      }
    }
    return JsonVariables.readValue(record);
  }

  private FilterVerdict evaluate(Map<String, Object> values) {
    Object result;
    try {
      // A resolver over the map, not eval(Map): that copies the map into an immutable one per row
      // (through a stream) only to look names up in it. The values are CEL's own types already
      // (JsonVariables gives no Integer or Float, which eval(Map) would widen), and a name without
      // a value, or with a null, resolves to nothing in both.
      result = program.eval(name -> Optional.ofNullable(values.get(name)));
    } catch (CelEvaluationException e) {
      return new FilterVerdict.DropError(e.getMessage());
    } catch (RuntimeException e) {
      // CEL reports row-dependent failures as CelEvaluationException; anything else it throws on a
      // row is still a row that could not be judged, and must not stop the tick.
      return new FilterVerdict.DropError("evaluation failed: " + e);
    }
    if (result instanceof Boolean decision) {
      return decision ? FilterVerdict.PASS : FilterVerdict.DROP;
    }
    List<String> missing =
        variables.stream().filter(name -> !values.containsKey(name)).sorted().toList();
    if (!missing.isEmpty()) {
      // CEL yields an "unknown" rather than an error for a declared variable without a value.
      return new FilterVerdict.DropError(
          "no top-level field " + String.join(", ", missing) + " in the payload");
    }
    return new FilterVerdict.DropError(
        "the expression yielded " + celTypeOf(result) + ", not a bool");
  }

  /** Judges a record as the provider sent it, as on a tail unit. */
  public FilterVerdict evaluate(RawRecord record) {
    return evaluate(record.bytes());
  }

  /** The expression as it was written in the config. */
  public String expression() {
    return expression;
  }

  /** The top-level fields the expression reads. */
  public Set<String> variables() {
    return variables;
  }

  @Override
  public String toString() {
    return "RowFilter[" + expression + "]";
  }

  /** Whether CEL resolves {@code name} on its own, as it does type names such as {@code int}. */
  private static boolean isKnownToCel(String name) {
    return !STANDARD_COMPILER.compile(name).hasError();
  }

  private static CelAbstractSyntaxTree astOf(CelValidationResult result) {
    try {
      return result.getAst();
    } catch (CelValidationException e) {
      throw new IllegalStateException("CEL reported no error yet gave no tree", e);
    }
  }

  /** The CEL type name of an evaluation result, never its value: reasons may be logged. */
  private static String celTypeOf(Object result) {
    if (result instanceof String) {
      return "a string";
    }
    if (result instanceof Long) {
      return "an int";
    }
    if (result instanceof Double) {
      return "a double";
    }
    if (result instanceof List) {
      return "a list";
    }
    if (result instanceof Map) {
      return "a map";
    }
    if (result instanceof NullValue || result.getClass().getSimpleName().equals("NullValue")) {
      // CEL has a null of its own and, from its protobuf roots, a second one.
      return "null";
    }
    return "a " + result.getClass().getSimpleName();
  }
}
