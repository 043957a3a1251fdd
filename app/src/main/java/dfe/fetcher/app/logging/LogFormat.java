package dfe.fetcher.app.logging;

import ch.qos.logback.classic.LoggerContext;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * How log events are written on stderr: {@code text} (the default, {@code TIME LEVEL LOGGER
 * event=NAME key=value ...}) or {@code json} (one JSON object per event with ECS-style names:
 * {@code @timestamp}, {@code log.level}, {@code log.logger}, {@code message}, and the message's
 * {@code key=value} pairs as fields). Chosen by {@code --log-format} or {@code
 * DFE_FETCHER_LOG_FORMAT}; {@link LogSetup} sets logback up for either.
 */
public enum LogFormat {
  TEXT,
  JSON;

  /** The environment variable that chooses the format when no {@code --log-format} is given. */
  public static final String VARIABLE = "DFE_FETCHER_LOG_FORMAT";

  /** The word for it in {@code --log-format} and {@code DFE_FETCHER_LOG_FORMAT}. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code text} or {@code json}, in any case; empty for anything else. */
  public static Optional<LogFormat> of(String word) {
    for (LogFormat format : values()) {
      if (format.word().equalsIgnoreCase(word.strip())) {
        return Optional.of(format);
      }
    }
    return Optional.empty();
  }

  /**
   * Sets logback up again with this format. Events logged before stay as they were written; a
   * logback that is not the SLF4J binding, or one an operator configured from a file of theirs
   * ({@code -Dlogback.configurationFile}), is left alone.
   */
  public void apply() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)
        || System.getProperty("logback.configurationFile") != null) {
      return;
    }
    LogSetup.configure(context, this);
  }
}
