package dfe.fetcher.rest;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every line logged while open, at DEBUG and above, with the messages of what it carried. */
final class CapturedLogs implements AutoCloseable {

  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger fetcher = (Logger) LoggerFactory.getLogger("dfe.fetcher");
  private final Level level;

  CapturedLogs() {
    level = fetcher.getLevel();
    fetcher.setLevel(Level.DEBUG);
    appender.start();
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(appender);
  }

  /** Each line's formatted message and the message of each throwable it carried. */
  List<String> texts() {
    List<String> texts = new ArrayList<>();
    for (ILoggingEvent event : appender.list) {
      texts.add(event.getFormattedMessage());
      for (var proxy = event.getThrowableProxy(); proxy != null; proxy = proxy.getCause()) {
        texts.add(proxy.getMessage());
      }
    }
    return texts;
  }

  @Override
  public void close() {
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(appender);
    fetcher.setLevel(level);
  }
}
