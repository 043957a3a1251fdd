package dfe.fetcher.runtime.tick;

/**
 * What a connection's filter does with a row it cannot judge: the expression reads a field the row
 * does not have, an operation fails on the row's values, or the result is not a boolean ({@code
 * filter_errors}). Either way the row is counted ({@code dfe_fetcher_filter_errors_total}) and the
 * tick logs one line naming the first reason.
 */
public enum FilterErrors {
  /** Land the row: a filter that fails never loses data silently. The default. */
  KEEP("keep"),
  /** Drop the row, as if the expression were false; its seq is given back. */
  DROP("drop");

  private final String configName;

  FilterErrors(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }
}
