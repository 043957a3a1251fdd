package dfe.fetcher.runtime.tick;

/** How one unit's tick ended. */
public sealed interface TickOutcome {

  /**
   * Everything read was landed and its checkpoint committed.
   *
   * @param partsCompleted dump parts ended with an acknowledged {@code end}
   * @param recordsLanded messages acknowledged: a dump's frames (begin, rows, stubs, end) and a
   *     tail's records
   * @param rowsFiltered rows the filter kept from landing
   * @param rowsUnjudged rows the filter could not judge, kept or dropped as {@code filter_errors}
   *     says
   */
  record Succeeded(long partsCompleted, long recordsLanded, long rowsFiltered, long rowsUnjudged)
      implements TickOutcome {

    /** A tick whose filter dropped nothing and judged every row. */
    public Succeeded(long partsCompleted, long recordsLanded) {
      this(partsCompleted, recordsLanded, 0, 0);
    }
  }

  /** The tick stopped early; nothing past the last acknowledged checkpoint was committed. */
  record Failed(String reason) implements TickOutcome {}

  /**
   * The service is stopping; nothing past the last acknowledged checkpoint was committed.
   *
   * @param leftADumpOpen a dump part was in progress and was left without its {@code end}
   */
  record Stopped(boolean leftADumpOpen) implements TickOutcome {

    /** A unit the stop kept from starting, or one that stopped between parts. */
    public Stopped() {
      this(false);
    }
  }
}
