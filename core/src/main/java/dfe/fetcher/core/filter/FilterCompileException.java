package dfe.fetcher.core.filter;

import java.util.Objects;

/**
 * A filter expression that cannot be used: it does not parse, it calls something CEL does not know,
 * or it can never yield a boolean. The message says what is wrong and where, as CEL's {@code ERROR:
 * filter:<line>:<column>: ...} lines with the offending line and a caret under the column; the
 * config loader prefixes the config path.
 */
public final class FilterCompileException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String expression;

  public FilterCompileException(String expression, String reason) {
    super(reason);
    this.expression = Objects.requireNonNull(expression, "expression");
  }

  /** The expression as it was written in the config. */
  public String expression() {
    return expression;
  }
}
