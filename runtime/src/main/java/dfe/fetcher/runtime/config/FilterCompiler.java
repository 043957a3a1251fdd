package dfe.fetcher.runtime.config;

import java.util.Optional;

/**
 * Checks a connection's {@code filter:} expression when the configuration is loaded, so that an
 * expression that does not compile is refused then and never at tick time. The application wires
 * the CEL filter into it; the loader only asks whether an expression compiles.
 */
@FunctionalInterface
public interface FilterCompiler {

  /**
   * Why {@code expression} does not compile, or empty when it does. The answer becomes the message
   * of a problem at the filter's line, so it should say what to fix.
   */
  Optional<String> problem(String expression);
}
