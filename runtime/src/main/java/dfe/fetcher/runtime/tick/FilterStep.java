package dfe.fetcher.runtime.tick;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.filter.FilterVerdict;
import java.util.Optional;

/**
 * One tick's use of its connection's filter: the decision per row, and what the tick counted, so
 * the tick can report the rows dropped and the rows the filter could not judge (with the first
 * reason) once, instead of once per row.
 */
final class FilterStep {

  /**
   * What the filter did in one tick.
   *
   * @param dropped rows not landed: judged false, or not judged under {@code filter_errors: drop}
   * @param unjudged rows the filter could not judge, kept or dropped
   * @param firstReason why the first of them could not be judged
   * @param onError what the unjudged rows did
   */
  record Report(long dropped, long unjudged, Optional<String> firstReason, FilterErrors onError) {}

  private final RowFilterStage stage;
  private final TickMetrics.RowCounters counters;
  private long dropped;
  private long unjudged;
  private String firstReason;

  FilterStep(RowFilterStage stage, TickMetrics.RowCounters counters) {
    this.stage = stage;
    this.counters = counters;
  }

  /** Whether the tail record {@code json} lands. */
  boolean keep(byte[] json) {
    return decide(stage.judge(json));
  }

  /** Whether the dump row {@code frame} lands. */
  boolean keepRow(Frame.Row frame) {
    return decide(stage.judgeRow(frame));
  }

  Report report() {
    return new Report(dropped, unjudged, Optional.ofNullable(firstReason), stage.onError());
  }

  private boolean decide(FilterVerdict verdict) {
    if (verdict.passes()) {
      return true;
    }
    if (verdict instanceof FilterVerdict.DropError error) {
      unjudged++;
      counters.filterError();
      if (firstReason == null) {
        firstReason = error.reason();
      }
      if (stage.onError() == FilterErrors.KEEP) {
        return true;
      }
    }
    dropped++;
    counters.filteredOut();
    return false;
  }
}
