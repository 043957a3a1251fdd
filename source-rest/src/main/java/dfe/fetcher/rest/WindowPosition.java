package dfe.fetcher.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.TimeFormat;
import java.io.IOException;
import java.time.Instant;

/**
 * Reads {@code window.position_at} from a record: the time the API orders a window's listing by.
 * Its errors name the unit, the setting and the record's place, never the record's content.
 */
final class WindowPosition {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String source;
  private final String setting;
  private final String pointer;
  private final TimeFormat format;

  /**
   * @param source the unit, {@code <id>.<unit>}
   * @param setting the config path of {@code window.position_at}
   */
  WindowPosition(String source, String setting, String pointer, TimeFormat format) {
    this.source = source;
    this.setting = setting;
    this.pointer = pointer;
    this.format = format;
  }

  /**
   * The time at {@code position_at} in {@code record}, which came from {@code origin}.
   *
   * @throws SourceException when the record holds no time there that the window's format reads
   */
  Instant of(RawRecord record, String origin) throws SourceException {
    JsonNode value;
    try {
      value = JSON.readTree(record.bytes()).at(pointer);
    } catch (IOException e) {
      throw problem(origin, "is not JSON the position can be read from");
    }
    if (value.isMissingNode()
        || value.isNull()
        || !(value.isTextual() || value.isIntegralNumber())) {
      throw problem(origin, "has no text or whole number at " + pointer);
    }
    return format
        .read(value.asText())
        .orElseThrow(
            () ->
                problem(
                    origin, "holds at " + pointer + " no time " + format.configName() + " reads"));
  }

  private SourceException problem(String origin, String what) {
    return new SourceException(
        source + ": " + setting + ": the last record of the cut window (" + origin + ") " + what);
  }
}
