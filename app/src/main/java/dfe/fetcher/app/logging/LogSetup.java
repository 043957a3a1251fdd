package dfe.fetcher.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.status.NopStatusListener;
import net.logstash.logback.composite.JsonProvider;
import net.logstash.logback.composite.loggingevent.KeyValuePairsJsonProvider;
import net.logstash.logback.composite.loggingevent.LogLevelJsonProvider;
import net.logstash.logback.composite.loggingevent.LoggerNameJsonProvider;
import net.logstash.logback.composite.loggingevent.LoggingEventFormattedTimestampJsonProvider;
import net.logstash.logback.composite.loggingevent.LoggingEventJsonProviders;
import net.logstash.logback.composite.loggingevent.LoggingEventThreadNameJsonProvider;
import net.logstash.logback.composite.loggingevent.MessageJsonProvider;
import net.logstash.logback.composite.loggingevent.StackTraceJsonProvider;
import net.logstash.logback.encoder.LoggingEventCompositeJsonEncoder;

/**
 * The fetcher's logging, set up in code rather than read from an XML file (which took logback a
 * good part of the start-up): one console appender on stderr (stdout belongs to command output)
 * writing {@link LogFormat#TEXT} or {@link LogFormat#JSON}, the root at {@code
 * DFE_FETCHER_LOG_LEVEL} (default {@code INFO}), and the libraries that narrate quieted.
 */
public final class LogSetup {

  /** The environment variable that sets the root level. */
  public static final String LEVEL_VARIABLE = "DFE_FETCHER_LOG_LEVEL";

  static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX,UTC} %-5level %logger %msg%n";

  private LogSetup() {}

  /** Replaces whatever {@code context} was configured with by the fetcher's {@code format}. */
  public static void configure(LoggerContext context, LogFormat format) {
    context.reset();
    // Logback prints its own status on stdout when a step warns; stdout is command output.
    context.getStatusManager().add(new NopStatusListener());
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName(format.word());
    appender.setTarget("System.err");
    appender.setEncoder(format == LogFormat.JSON ? json(context) : text(context));
    appender.start();

    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getenv(LEVEL_VARIABLE), Level.INFO));
    root.addAppender(appender);
    // The Kafka clients narrate every connection at INFO; their warnings are what matters.
    context.getLogger("org.apache.kafka").setLevel(Level.WARN);
    // The network client warns once per retry while a broker is down (dozens of lines a second)
    // and on every metadata answer for a topic that is being created: the fetcher reports an
    // unreachable cluster itself, once per failed batch, in words that say so.
    context.getLogger("org.apache.kafka.clients.NetworkClient").setLevel(Level.ERROR);
    // The pool narrates its start and shutdown; the fetcher logs connections opened and closed.
    context.getLogger("com.zaxxer.hikari").setLevel(Level.WARN);
  }

  private static Encoder<ILoggingEvent> text(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(TEXT_PATTERN);
    encoder.start();
    return encoder;
  }

  /**
   * One JSON object per event, ECS-style names for the event's own fields; the message's {@code
   * key=value} pairs become fields of their own ({@link EventFieldsJsonProvider}).
   */
  private static Encoder<ILoggingEvent> json(LoggerContext context) {
    LoggingEventFormattedTimestampJsonProvider timestamp =
        new LoggingEventFormattedTimestampJsonProvider();
    timestamp.setFieldName("@timestamp");
    timestamp.setPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX");
    timestamp.setTimeZone("UTC");
    LogLevelJsonProvider level = new LogLevelJsonProvider();
    level.setFieldName("log.level");
    LoggerNameJsonProvider logger = new LoggerNameJsonProvider();
    logger.setFieldName("log.logger");
    LoggingEventThreadNameJsonProvider thread = new LoggingEventThreadNameJsonProvider();
    thread.setFieldName("process.thread.name");
    MessageJsonProvider message = new MessageJsonProvider();
    message.setFieldName("message");
    StackTraceJsonProvider stackTrace = new StackTraceJsonProvider();
    stackTrace.setFieldName("error.stack_trace");

    LoggingEventJsonProviders providers = new LoggingEventJsonProviders();
    for (JsonProvider<ILoggingEvent> provider :
        java.util.List.<JsonProvider<ILoggingEvent>>of(
            timestamp,
            level,
            logger,
            thread,
            message,
            new EventFieldsJsonProvider(),
            new KeyValuePairsJsonProvider(),
            stackTrace)) {
      provider.setContext(context);
      providers.addProvider(provider);
    }
    LoggingEventCompositeJsonEncoder encoder = new LoggingEventCompositeJsonEncoder();
    encoder.setContext(context);
    encoder.setProviders(providers);
    encoder.start();
    return encoder;
  }
}
