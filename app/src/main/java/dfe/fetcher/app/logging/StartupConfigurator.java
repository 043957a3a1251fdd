package dfe.fetcher.app.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's first configuration, found through {@code META-INF/services}: the fetcher's own ({@link
 * LogSetup}) in the format {@code DFE_FETCHER_LOG_FORMAT} names (text when unset or not a format;
 * the command line reports a bad value). It steps aside for a configuration file an operator names
 * with {@code -Dlogback.configurationFile}, and for a test class path's {@code logback-test.xml}.
 */
public final class StartupConfigurator extends ContextAwareBase implements Configurator {

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || StartupConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    String variable = System.getenv(LogFormat.VARIABLE);
    LogFormat format =
        variable == null ? LogFormat.TEXT : LogFormat.of(variable).orElse(LogFormat.TEXT);
    LogSetup.configure(context, format);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
