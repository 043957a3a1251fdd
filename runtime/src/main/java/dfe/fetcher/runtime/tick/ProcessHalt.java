package dfe.fetcher.runtime.tick;

import org.slf4j.LoggerFactory;

/**
 * What the process does on an error of the JVM that a unit's failure cannot contain (an {@link
 * InternalError}, a second {@link OutOfMemoryError} while the first was being handled): log it and
 * end the process with a non-zero status at once, so its supervisor restarts it. A connection that
 * silently stops being scheduled while health says all is well is the outcome this prevents.
 */
@FunctionalInterface
public interface ProcessHalt {

  /** The status the process exits with. */
  int STATUS = 70;

  /** Logs and halts the JVM ({@link Runtime#halt}: no shutdown hooks, which may need memory). */
  ProcessHalt JVM =
      (where, error) -> {
        try {
          LoggerFactory.getLogger("dfe.fetcher.tick")
              .error(
                  "event=process_halt where={} error=\"{}\" status={}"
                      + " note=\"an error of the JVM that cannot be contained\"",
                  where,
                  error.toString(),
                  STATUS);
        } finally {
          Runtime.getRuntime().halt(STATUS);
        }
      };

  /**
   * Ends the process; {@code where} names the unit or connection that was running. Returns only in
   * tests.
   */
  void halt(String where, VirtualMachineError error);
}
