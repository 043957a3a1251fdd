package dfe.fetcher.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.logstash.logback.composite.AbstractJsonProvider;

/**
 * Writes the {@code key=value} pairs of a fetcher log message ({@code event=tick_done unit=...}) as
 * fields of the event's JSON object, through the encoder's Jackson generator: the JSON form of the
 * logfmt text, nothing more. A value written unquoted that reads as a decimal number is written as
 * a number, every other value as a string. Keys the encoder's own fields use are left out, so a
 * message cannot overwrite the time, level, logger or message.
 */
public final class EventFieldsJsonProvider extends AbstractJsonProvider<ILoggingEvent> {

  private static final Set<String> RESERVED =
      Set.of("@timestamp", "message", "log.level", "log.logger", "process.thread.name");
  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,17})(\\.[0-9]+)?");

  @Override
  public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
    String message = event.getFormattedMessage();
    if (message == null) {
      return;
    }
    for (Map.Entry<String, LogfmtFields.Value> field : LogfmtFields.parse(message).entrySet()) {
      if (RESERVED.contains(field.getKey())) {
        continue;
      }
      LogfmtFields.Value value = field.getValue();
      if (!value.quoted() && NUMBER.matcher(value.text()).matches()) {
        generator.writeNumberField(field.getKey(), new BigDecimal(value.text()));
      } else {
        generator.writeStringField(field.getKey(), value.text());
      }
    }
  }
}
