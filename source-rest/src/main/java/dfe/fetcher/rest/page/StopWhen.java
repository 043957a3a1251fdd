package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.FilterVerdict;
import dfe.fetcher.core.filter.RowFilter;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code paginate.stop_when}: a CEL condition over the page just read that ends the listing when it
 * holds. It sees {@code body} (the page's tree; {@code json_at}'s without its rows array), {@code
 * rows} (how many rows the page held) and {@code headers} (each response header's first value, by
 * its lower-case name). A condition that cannot be judged on a page (a field it reads is missing, a
 * result that is not a boolean) fails the page: a listing that cannot tell whether it ended must
 * not end as complete. Equal when the expressions are.
 */
final class StopWhen {

  /** What the expression may read. */
  static final List<String> VARIABLES = List.of("body", "rows", "headers");

  private final RowFilter condition;

  private StopWhen(RowFilter condition) {
    this.condition = condition;
  }

  /** The condition at {@code paginate.stop_when}; one that does not compile is reported. */
  static Optional<StopWhen> read(Section paginate) {
    Optional<String> expression = paginate.string("stop_when");
    if (expression.isEmpty()) {
      return Optional.empty();
    }
    RowFilter compiled;
    try {
      compiled = RowFilter.compile(expression.get());
    } catch (FilterCompileException e) {
      paginate.report("stop_when", "does not compile: " + e.getMessage());
      return Optional.empty();
    }
    Set<String> unknown = new TreeSet<>(compiled.variables());
    unknown.removeAll(VARIABLES);
    if (!unknown.isEmpty()) {
      paginate.report(
          "stop_when",
          "reads "
              + String.join(", ", unknown)
              + "; it sees "
              + String.join(", ", VARIABLES)
              + " (e.g. body.meta.last == true, rows < 100)");
      return Optional.empty();
    }
    return Optional.of(new StopWhen(compiled));
  }

  boolean readsBody() {
    return condition.variables().contains("body");
  }

  String expression() {
    return condition.expression();
  }

  /**
   * Whether the listing ends after {@code page}.
   *
   * @throws SourceException when the condition cannot be judged on it
   */
  boolean holds(Pager.Page page) throws SourceException {
    ObjectNode view = PageDecoding.TREE.createObjectNode();
    page.body().ifPresent(body -> view.set("body", body));
    view.put("rows", page.rows());
    ObjectNode headers = view.putObject("headers");
    page.headers()
        .map()
        .forEach(
            (name, values) -> {
              if (!values.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
              }
            });
    FilterVerdict verdict;
    try {
      verdict = condition.evaluate(PageDecoding.TREE.writeValueAsBytes(view));
    } catch (IOException e) {
      throw new SourceException("paginate.stop_when: the page cannot be re-read", e);
    }
    if (verdict instanceof FilterVerdict.DropError error) {
      throw new SourceException(
          "paginate.stop_when ("
              + condition.expression()
              + ") cannot be judged on the page: "
              + error.reason());
    }
    return verdict.passes();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StopWhen that && expression().equals(that.expression());
  }

  @Override
  public int hashCode() {
    return Objects.hash(expression());
  }

  @Override
  public String toString() {
    return "StopWhen[" + expression() + "]";
  }
}
