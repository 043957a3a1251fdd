package dfe.fetcher.rest.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.RowFilter;
import java.io.IOException;
import java.util.Set;

/**
 * {@code errors.throttle_when}: a CEL condition over a non-2xx answer's {@code status} (a number)
 * and {@code body} (its JSON, or null when it is not JSON), e.g. {@code status == 400 &&
 * body.__type.endsWith("ThrottlingException")} for AWS. A condition that cannot be evaluated on an
 * answer (a field it reads is missing) does not hold. Equal when the expressions are.
 */
public final class ThrottleCondition {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RowFilter filter;

  private ThrottleCondition(RowFilter filter) {
    this.filter = filter;
  }

  /**
   * @throws FilterCompileException when {@code expression} is not CEL the filter compiles
   */
  public static ThrottleCondition compile(String expression) throws FilterCompileException {
    return new ThrottleCondition(RowFilter.compile(expression));
  }

  /** The top-level names the condition reads; only {@code status} and {@code body} are bound. */
  public Set<String> variables() {
    return filter.variables();
  }

  public String expression() {
    return filter.expression();
  }

  /** Whether an answer with {@code status} and {@code body} (as received, or empty) throttles. */
  public boolean holds(int status, byte[] body) {
    JsonNode parsed;
    try {
      parsed = body.length == 0 ? NullNode.getInstance() : JSON.readTree(body);
    } catch (IOException e) {
      parsed = NullNode.getInstance();
    }
    ObjectNode answer = JSON.createObjectNode();
    answer.put("status", status);
    answer.set("body", parsed == null ? NullNode.getInstance() : parsed);
    byte[] wrapped;
    try {
      wrapped = JSON.writeValueAsBytes(answer);
    } catch (IOException e) {
      return false;
    }
    return filter.evaluate(wrapped).passes();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ThrottleCondition that && expression().equals(that.expression());
  }

  @Override
  public int hashCode() {
    return expression().hashCode();
  }

  @Override
  public String toString() {
    return expression();
  }
}
