package dfe.fetcher.runtime.tick;

/** How one unit's tick ended. */
public sealed interface TickOutcome {

  /** Everything read was landed and its checkpoint committed. */
  record Succeeded(long partsCompleted, long recordsLanded) implements TickOutcome {}

  /** The tick stopped early; nothing past the last acknowledged checkpoint was committed. */
  record Failed(String reason) implements TickOutcome {}

  /** The service is stopping; open dumps were left without an end. */
  record Stopped() implements TickOutcome {}
}
