package dfe.fetcher.runtime.service;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.FilterVerdict;
import dfe.fetcher.core.filter.RowFilter;
import dfe.fetcher.runtime.config.FilterCompiler;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.runtime.tick.RowFilterStage;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The CEL filter as the config loader checks it and as the tick applies it. */
final class FilterStages {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.filter");

  /** The loader's check: the compile error, if any. */
  static final FilterCompiler COMPILER =
      expression -> {
        try {
          RowFilter.compile(expression);
          return Optional.empty();
        } catch (FilterCompileException e) {
          return Optional.of(e.getMessage());
        }
      };

  private FilterStages() {}

  /**
   * The tick's filter step for an expression the loader already accepted; a row it cannot judge
   * does what {@code onError} says.
   */
  static RowFilterStage compiled(String expression, FilterErrors onError) {
    RowFilter filter;
    try {
      filter = RowFilter.compile(expression);
    } catch (FilterCompileException e) {
      throw new IllegalStateException("a filter the loader accepted does not compile", e);
    }
    return new RowFilterStage() {
      @Override
      public FilterVerdict judge(byte[] json) {
        return logged(filter.evaluate(json));
      }

      @Override
      public FilterVerdict judgeRow(Frame.Row frame) {
        return logged(filter.evaluateRowFrame(frame));
      }

      @Override
      public FilterErrors onError() {
        return onError;
      }
    };
  }

  private static FilterVerdict logged(FilterVerdict verdict) {
    if (!verdict.passes()) {
      LOG.debug("event=row_filtered verdict={}", verdict);
    }
    return verdict;
  }
}
