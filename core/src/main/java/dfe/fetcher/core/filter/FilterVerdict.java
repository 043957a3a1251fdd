package dfe.fetcher.core.filter;

import java.util.Objects;

/**
 * What a {@link RowFilter} decided for one row: it passes, the expression was false, or the row
 * could not be judged and is dropped for that reason.
 *
 * <p>A dropped row of either kind gives its seq back; the driver counts the two kinds apart so an
 * operator can tell a filter that works from one that fails on every row.
 */
public sealed interface FilterVerdict {

  /** The verdict for a row the expression accepted, and for a payload that is not an object. */
  FilterVerdict PASS = new Pass();

  /** The verdict for a row the expression evaluated to {@code false} on. */
  FilterVerdict DROP = new Drop();

  /** Whether the row goes on to enrichment and the batch. */
  boolean passes();

  /** The expression was {@code true}, or the payload is not a JSON object and was not judged. */
  record Pass() implements FilterVerdict {
    @Override
    public boolean passes() {
      return true;
    }
  }

  /** The expression was {@code false}. */
  record Drop() implements FilterVerdict {
    @Override
    public boolean passes() {
      return false;
    }
  }

  /**
   * The row could not be judged: it is not valid JSON, a field the expression reads is missing, an
   * operation failed on the row's values, or the result was not a boolean.
   *
   * @param reason what went wrong, in CEL's words where CEL reported it; fit for a log line or a
   *     DLQ entry
   */
  record DropError(String reason) implements FilterVerdict {
    public DropError {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public boolean passes() {
      return false;
    }
  }
}
