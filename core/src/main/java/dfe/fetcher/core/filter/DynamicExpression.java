package dfe.fetcher.core.filter;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelMutableExpr;
import dev.cel.common.ast.CelMutableExpr.CelMutableCall;
import dev.cel.common.ast.CelMutableExpr.CelMutableComprehension;
import dev.cel.common.ast.CelMutableExprConverter;
import dev.cel.common.navigation.CelNavigableMutableExpr;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A parsed filter expression made ready for rows whose shape is only known when they arrive.
 *
 * <p>Two things are done to the parsed tree before it is type-checked:
 *
 * <ul>
 *   <li>The free identifiers are collected: every identifier that no comprehension (a macro such as
 *       {@code exists} or {@code map}) binds. The checker is then told each is {@code dyn}.
 *   <li>Both operands of every {@code ==} and {@code !=} are wrapped in {@code dyn(...)}. CEL's
 *       checker insists that equality be between values of one static type, so {@code 1 == 1.0} or
 *       {@code size(record.tags) == 2.0} would be refused, while at run time CEL compares numbers
 *       across int, uint and double by value. Row values are {@code dyn} anyway, so deferring
 *       equality to run time makes literals and function results behave like row values: {@code 1
 *       == 1.0} is true and {@code "a" == 1} is false rather than an error.
 * </ul>
 *
 * <p>The tree keeps the parser's source, so the checker's errors still point at a line and column
 * of what the user wrote; the added {@code dyn} calls cannot fail and have no position.
 *
 * @param ast the rewritten tree, parsed but not yet checked
 * @param freeIdentifiers the identifiers the expression reads from outside, sorted
 * @param fieldsRead for each free identifier that is only ever read through a field selection
 *     ({@code record.alive}, {@code has(record.n)}), the names of the fields selected; an
 *     identifier read in any other way ({@code size(record)}, {@code record["a"]}, a macro's range)
 *     is not in the map, as its whole value may matter
 */
record DynamicExpression(
    CelAbstractSyntaxTree ast, Set<String> freeIdentifiers, Map<String, Set<String>> fieldsRead) {

  DynamicExpression {
    freeIdentifiers = Collections.unmodifiableSet(new TreeSet<>(freeIdentifiers));
    fieldsRead = Map.copyOf(fieldsRead);
  }

  static DynamicExpression prepare(CelAbstractSyntaxTree parsed) {
    CelMutableExpr root = CelMutableExprConverter.fromCelExpr(parsed.getExpr());
    Walk walk = new Walk(greatestId(root, parsed));
    walk.visit(root, Set.of());
    CelAbstractSyntaxTree rewritten =
        CelAbstractSyntaxTree.newParsedAst(
            CelMutableExprConverter.fromMutableExpr(root), parsed.getSource());
    Map<String, Set<String>> fieldsRead = new HashMap<>();
    walk.selected.forEach(
        (name, fields) -> {
          if (!walk.readWhole.contains(name)) {
            fieldsRead.put(name, Set.copyOf(fields));
          }
        });
    return new DynamicExpression(rewritten, walk.free, fieldsRead);
  }

  /**
   * The greatest id in use, so added nodes get fresh ones: node ids from the tree, and from the
   * parser's position table, which also numbers map and struct entries.
   */
  private static long greatestId(CelMutableExpr root, CelAbstractSyntaxTree parsed) {
    long inTree =
        CelNavigableMutableExpr.fromExpr(root)
            .allNodes()
            .mapToLong(node -> node.expr().id())
            .max()
            .orElse(0);
    long inPositions =
        parsed.getSource().getPositionsMap().keySet().stream()
            .mapToLong(Long::longValue)
            .max()
            .orElse(0);
    return Math.max(inTree, inPositions);
  }

  /** One pass over the tree that collects free identifiers and rewrites equality in place. */
  private static final class Walk {
    private final Set<String> free = new HashSet<>();
    private final Map<String, Set<String>> selected = new HashMap<>();
    private final Set<String> readWhole = new HashSet<>();
    private long nextId;

    Walk(long greatestId) {
      this.nextId = greatestId + 1;
    }

    void visit(CelMutableExpr expr, Set<String> bound) {
      switch (expr.getKind()) {
        case IDENT -> {
          String name = expr.ident().name();
          if (!bound.contains(name)) {
            free.add(name);
            readWhole.add(name);
          }
        }
        case SELECT -> {
          CelMutableExpr operand = expr.select().operand();
          if (operand.getKind() == CelExpr.ExprKind.Kind.IDENT
              && !bound.contains(operand.ident().name())) {
            String name = operand.ident().name();
            free.add(name);
            selected.computeIfAbsent(name, any -> new HashSet<>()).add(expr.select().field());
          } else {
            visit(operand, bound);
          }
        }
        case CALL -> visitCall(expr.call(), bound);
        case LIST -> expr.list().elements().forEach(element -> visit(element, bound));
        case MAP ->
            expr.map()
                .entries()
                .forEach(
                    entry -> {
                      visit(entry.key(), bound);
                      visit(entry.value(), bound);
                    });
        case STRUCT -> expr.struct().entries().forEach(entry -> visit(entry.value(), bound));
        case COMPREHENSION -> visitComprehension(expr.comprehension(), bound);
        default -> {
          // constants and unset nodes read nothing
        }
      }
    }

    private void visitCall(CelMutableCall call, Set<String> bound) {
      call.target().ifPresent(target -> visit(target, bound));
      call.args().forEach(arg -> visit(arg, bound));
      boolean equality = call.function().equals("_==_") || call.function().equals("_!=_");
      if (equality && call.args().size() == 2) {
        for (int i = 0; i < 2; i++) {
          call.setArg(
              i, CelMutableExpr.ofCall(nextId++, CelMutableCall.create("dyn", call.args().get(i))));
        }
      }
    }

    private void visitComprehension(CelMutableComprehension loop, Set<String> bound) {
      // The range and the initial accumulator are evaluated outside the loop's scope.
      visit(loop.iterRange(), bound);
      visit(loop.accuInit(), bound);
      Set<String> inner = new HashSet<>(bound);
      inner.add(loop.iterVar());
      if (!loop.iterVar2().isEmpty()) {
        inner.add(loop.iterVar2());
      }
      inner.add(loop.accuVar());
      visit(loop.loopCondition(), inner);
      visit(loop.loopStep(), inner);
      visit(loop.result(), inner);
    }
  }
}
