package dfe.fetcher.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.TimeFormat;
import java.io.IOException;
import java.time.Instant;

/**
 * Reads a time from a record at a JSON pointer: {@code window.position_at} (the time the API orders
 * a window's listing by) or {@code window.cursor_at} (the time a record-field cursor keeps). Its
 * errors name the unit, the setting and the record's place, never the record's content.
 */
final class WindowPosition {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String source;
  private final String setting;
  private final String pointer;
  private final TimeFormat format;
  private final String role;

  /**
   * @param source the unit, {@code <id>.<unit>}; empty when the error is raised inside a listing,
   *     which names the unit itself
   * @param setting the config path of the pointer's setting
   * @param role which record is read, for errors: "the last record of the cut window"
   */
  WindowPosition(String source, String setting, String pointer, TimeFormat format, String role) {
    this.source = source;
    this.setting = setting;
    this.pointer = pointer;
    this.format = format;
    this.role = role;
  }

  /**
   * The time at {@code position_at} in {@code record}, which came from {@code origin}.
   *
   * @throws SourceException when the record holds no time there that the window's format reads
   */
  Instant of(RawRecord record, String origin) throws SourceException {
    return of(tree(record, origin), origin);
  }

  /** {@code record} read as JSON, for {@link #of(JsonNode, String)} and the caller alike. */
  JsonNode tree(RawRecord record, String origin) throws SourceException {
    try {
      return JSON.readTree(record.bytes());
    } catch (IOException e) {
      throw problem(origin, "is not JSON the time can be read from");
    }
  }

  /**
   * The time at the pointer in {@code tree}, a record which came from {@code origin}.
   *
   * @throws SourceException when the record holds no time there that the window's format reads
   */
  Instant of(JsonNode tree, String origin) throws SourceException {
    JsonNode value = tree.at(pointer);
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
    String unit = source.isEmpty() ? "" : source + ": ";
    return new SourceException(unit + setting + ": " + role + " (" + origin + ") " + what);
  }
}
